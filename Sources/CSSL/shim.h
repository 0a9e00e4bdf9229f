#ifndef SLEEPSTA_CSSL_SHIM_H
#define SLEEPSTA_CSSL_SHIM_H
// OpenSSL's libcrypto from Debian (libssl-dev): SHA-256 through the EVP digest interface.
#include <openssl/evp.h>
#endif
