// COpenSSL: the OpenSSL 3 headers X509Trust, ReceiptKit and JWSKit need, plus `static inline`
// wrappers for the parts of the API that are C macros (safestack accessors, OPENSSL_free,
// BIO_get_mem_data, compound flag constants), which Swift cannot import. On Linux the functions
// themselves are defined by libcrypto_loader.c, which loads libcrypto at the first call.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/opensslv.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/bn.h>
#include <openssl/asn1.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/cms.h>
#include <openssl/pkcs7.h>

#if OPENSSL_VERSION_NUMBER < 0x30000000L
#error "receipt-explorer needs OpenSSL 3.0 or later"
#endif

// MARK: STACK_OF(X509)

static inline int shim_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *shim_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline STACK_OF(X509) *shim_sk_X509_new_null(void) { return sk_X509_new_null(); }
/// Pushes `x` without taking a new reference: the stack owns whatever the caller gives it.
static inline int shim_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
/// Frees the stack only (the certificates are owned elsewhere).
static inline void shim_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
/// Frees the stack and drops one reference on every certificate in it.
static inline void shim_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }

// MARK: STACK_OF(CMS_SignerInfo)

static inline int shim_sk_CMS_SignerInfo_num(const STACK_OF(CMS_SignerInfo) *sk) {
    return sk_CMS_SignerInfo_num(sk);
}
static inline CMS_SignerInfo *shim_sk_CMS_SignerInfo_value(const STACK_OF(CMS_SignerInfo) *sk, int i) {
    return sk_CMS_SignerInfo_value(sk, i);
}

// MARK: memory, BIO

static inline void shim_OPENSSL_free(void *p) { OPENSSL_free(p); }

/// Length of a memory BIO's data; `*data` points into the BIO (valid until it is freed or written).
static inline long shim_BIO_get_mem_data(BIO *bio, const char **data) {
    char *p = NULL;
    long n = BIO_get_mem_data(bio, &p);
    *data = p;
    return n;
}

// MARK: constants built from other macros

/// RFC 2253 one-line names, but UTF-8 kept as is (like `-nameopt utf8`) instead of `\XX` escapes.
static inline unsigned long shim_XN_FLAG_RFC2253_UTF8(void) {
    return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB;
}

#endif
