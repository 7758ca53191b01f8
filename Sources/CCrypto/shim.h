// OpenSSL's libcrypto: RS256 signatures of the service-account JWT (PEM keys, EVP_DigestSign).
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/err.h>
