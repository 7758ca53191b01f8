#ifndef ROOST_CCRYPTO_H
#define ROOST_CCRYPTO_H

// OpenSSL's libcrypto: RS256 signatures of the service-account JWT (PEM keys, EVP_DigestSign).
//
// libcrypto is opened on first use (Crypto.c, CSharedLibrary): every function of it Roost
// calls is defined there, so a function used and not defined there fails the link.
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/err.h>

#endif
