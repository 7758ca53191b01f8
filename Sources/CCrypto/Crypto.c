// libcrypto opened on first use: each function Roost calls, defined as a call through its
// address (CSharedLibrary), with the prototype OpenSSL's headers give it.
#include "CCrypto.h"

#include <CSharedLibrary.h>

// The soname is the ABI the headers describe: libcrypto.so.3 for OpenSSL 3.x.
_Static_assert(OPENSSL_VERSION_MAJOR == 3, "the headers are not OpenSSL 3: check the soname below (libcrypto.so.3)");

static roost_shared_library crypto =
    ROOST_SHARED_LIBRARY("libcrypto.so.3", "signing a service account's token (a Firestore database)");

ROOST_FORWARD(crypto, BIO *, BIO_new_mem_buf, (const void *bytes, int count), (bytes, count))
ROOST_FORWARD(crypto, int, BIO_free, (BIO *bio), (bio))
ROOST_FORWARD(crypto, EVP_PKEY *, PEM_read_bio_PrivateKey,
              (BIO *bio, EVP_PKEY **key, pem_password_cb *password, void *context), (bio, key, password, context))
ROOST_FORWARD(crypto, int, EVP_PKEY_get_base_id, (const EVP_PKEY *key), (key))
ROOST_FORWARD_VOID(crypto, EVP_PKEY_free, (EVP_PKEY *key), (key))
ROOST_FORWARD(crypto, const EVP_MD *, EVP_sha256, (void), ())
ROOST_FORWARD(crypto, EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())
ROOST_FORWARD_VOID(crypto, EVP_MD_CTX_free, (EVP_MD_CTX *context), (context))
ROOST_FORWARD(crypto, int, EVP_DigestSignInit,
              (EVP_MD_CTX *context, EVP_PKEY_CTX **keyContext, const EVP_MD *digest, ENGINE *engine, EVP_PKEY *key),
              (context, keyContext, digest, engine, key))
ROOST_FORWARD(crypto, int, EVP_DigestSign,
              (EVP_MD_CTX *context, unsigned char *signature, size_t *signatureLength, const unsigned char *bytes,
               size_t count),
              (context, signature, signatureLength, bytes, count))
ROOST_FORWARD(crypto, unsigned long, ERR_get_error, (void), ())
ROOST_FORWARD_VOID(crypto, ERR_clear_error, (void), ())
ROOST_FORWARD(crypto, const char *, ERR_reason_error_string, (unsigned long error), (error))
