// libcrypto behind dlopen, on Linux: every OpenSSL function the Swift targets call is defined here
// with OpenSSL's own prototype (the headers check each one) and forwards to libcrypto, which is
// loaded at the first call. A command that never checks a signature or decodes a certificate with
// OpenSSL (`--version`, `dump`, `explain`, `json --no-validate`) never loads libcrypto: loading and
// relocating it was most of a one-shot command's start-up (issue 32, docs/performance.md "Start-up").
// macOS links libcrypto as before (CLibCrypto), so this file is empty there.
//
// A function the Swift code starts to call must be added to OPENSSL_IMPORTS below: the link fails
// with "undefined reference" until it is.
#if defined(__linux__)

#include "COpenSSL.h"

#include <dlfcn.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// FUNCTION(return type, name, parameters, arguments) / PROCEDURE(name, parameters, arguments) for void.
#define OPENSSL_IMPORTS(FUNCTION, PROCEDURE) \
    FUNCTION(BIGNUM *, ASN1_INTEGER_to_BN, (const ASN1_INTEGER *a0, BIGNUM *a1), (a0, a1)) \
    PROCEDURE(ASN1_OBJECT_free, (ASN1_OBJECT *a0), (a0)) \
    FUNCTION(int, ASN1_TIME_to_tm, (const ASN1_TIME *a0, struct tm *a1), (a0, a1)) \
    FUNCTION(long, BIO_ctrl, (BIO *a0, int a1, long a2, void *a3), (a0, a1, a2, a3)) \
    FUNCTION(int, BIO_free, (BIO *a0), (a0)) \
    FUNCTION(BIO *, BIO_new, (const BIO_METHOD *a0), (a0)) \
    FUNCTION(BIO *, BIO_new_mem_buf, (const void *a0, int a1), (a0, a1)) \
    FUNCTION(const BIO_METHOD *, BIO_s_mem, (void), ()) \
    FUNCTION(char *, BN_bn2hex, (const BIGNUM *a0), (a0)) \
    PROCEDURE(BN_free, (BIGNUM *a0), (a0)) \
    PROCEDURE(CMS_ContentInfo_free, (CMS_ContentInfo *a0), (a0)) \
    FUNCTION(STACK_OF(CMS_SignerInfo) *, CMS_get0_SignerInfos, (CMS_ContentInfo *a0), (a0)) \
    FUNCTION(const ASN1_OBJECT *, CMS_get0_type, (const CMS_ContentInfo *a0), (a0)) \
    FUNCTION(STACK_OF(X509) *, CMS_get1_certs, (CMS_ContentInfo *a0), (a0)) \
    FUNCTION(int, CMS_is_detached, (CMS_ContentInfo *a0), (a0)) \
    FUNCTION(int, CMS_SignerInfo_cert_cmp, (CMS_SignerInfo *a0, X509 *a1), (a0, a1)) \
    PROCEDURE(CMS_SignerInfo_get0_algs, (CMS_SignerInfo *a0, EVP_PKEY **a1, X509 **a2, X509_ALGOR **a3, X509_ALGOR **a4), (a0, a1, a2, a3, a4)) \
    FUNCTION(int, CMS_verify, (CMS_ContentInfo *a0, STACK_OF(X509) *a1, X509_STORE *a2, BIO *a3, BIO *a4, unsigned int a5), (a0, a1, a2, a3, a4, a5)) \
    PROCEDURE(CRYPTO_free, (void *a0, const char *a1, int a2), (a0, a1, a2)) \
    FUNCTION(EVP_PKEY *, d2i_AutoPrivateKey, (EVP_PKEY **a0, const unsigned char **a1, long a2), (a0, a1, a2)) \
    FUNCTION(CMS_ContentInfo *, d2i_CMS_ContentInfo, (CMS_ContentInfo **a0, const unsigned char **a1, long a2), (a0, a1, a2)) \
    FUNCTION(EVP_PKEY *, d2i_PUBKEY, (EVP_PKEY **a0, const unsigned char **a1, long a2), (a0, a1, a2)) \
    FUNCTION(X509 *, d2i_X509, (X509 **a0, const unsigned char **a1, long a2), (a0, a1, a2)) \
    PROCEDURE(ERR_clear_error, (void), ()) \
    PROCEDURE(ERR_error_string_n, (unsigned long a0, char *a1, size_t a2), (a0, a1, a2)) \
    FUNCTION(unsigned long, ERR_get_error, (void), ()) \
    FUNCTION(const char *, ERR_reason_error_string, (unsigned long a0), (a0)) \
    FUNCTION(int, EVP_Digest, (const void *a0, size_t a1, unsigned char *a2, unsigned int *a3, const EVP_MD *a4, ENGINE *a5), (a0, a1, a2, a3, a4, a5)) \
    FUNCTION(int, EVP_DigestSign, (EVP_MD_CTX *a0, unsigned char *a1, size_t *a2, const unsigned char *a3, size_t a4), (a0, a1, a2, a3, a4)) \
    FUNCTION(int, EVP_DigestSignInit, (EVP_MD_CTX *a0, EVP_PKEY_CTX **a1, const EVP_MD *a2, ENGINE *a3, EVP_PKEY *a4), (a0, a1, a2, a3, a4)) \
    FUNCTION(int, EVP_DigestFinal_ex, (EVP_MD_CTX *a0, unsigned char *a1, unsigned int *a2), (a0, a1, a2)) \
    FUNCTION(int, EVP_DigestInit_ex, (EVP_MD_CTX *a0, const EVP_MD *a1, ENGINE *a2), (a0, a1, a2)) \
    FUNCTION(int, EVP_DigestUpdate, (EVP_MD_CTX *a0, const void *a1, size_t a2), (a0, a1, a2)) \
    FUNCTION(int, EVP_MD_CTX_copy_ex, (EVP_MD_CTX *a0, const EVP_MD_CTX *a1), (a0, a1)) \
    PROCEDURE(EVP_MD_CTX_free, (EVP_MD_CTX *a0), (a0)) \
    FUNCTION(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ()) \
    FUNCTION(EVP_MD *, EVP_MD_fetch, (OSSL_LIB_CTX *a0, const char *a1, const char *a2), (a0, a1, a2)) \
    PROCEDURE(EVP_PKEY_CTX_free, (EVP_PKEY_CTX *a0), (a0)) \
    FUNCTION(EVP_PKEY_CTX *, EVP_PKEY_CTX_new, (EVP_PKEY *a0, ENGINE *a1), (a0, a1)) \
    FUNCTION(int, EVP_PKEY_check, (EVP_PKEY_CTX *a0), (a0)) \
    PROCEDURE(EVP_PKEY_free, (EVP_PKEY *a0), (a0)) \
    FUNCTION(const char *, EVP_PKEY_get0_type_name, (const EVP_PKEY *a0), (a0)) \
    FUNCTION(int, EVP_PKEY_get_base_id, (const EVP_PKEY *a0), (a0)) \
    FUNCTION(int, EVP_PKEY_get_group_name, (const EVP_PKEY *a0, char *a1, size_t a2, size_t *a3), (a0, a1, a2, a3)) \
    FUNCTION(int, EVP_PKEY_verify, (EVP_PKEY_CTX *a0, const unsigned char *a1, size_t a2, const unsigned char *a3, size_t a4), (a0, a1, a2, a3, a4)) \
    FUNCTION(int, EVP_PKEY_verify_init, (EVP_PKEY_CTX *a0), (a0)) \
    FUNCTION(const EVP_MD *, EVP_sha1, (void), ()) \
    FUNCTION(const EVP_MD *, EVP_sha256, (void), ()) \
    FUNCTION(int, i2d_PUBKEY, (const EVP_PKEY *a0, unsigned char **a1), (a0, a1)) \
    FUNCTION(int, i2d_X509, (const X509 *a0, unsigned char **a1), (a0, a1)) \
    FUNCTION(const char *, OBJ_nid2ln, (int a0), (a0)) \
    FUNCTION(int, OBJ_obj2nid, (const ASN1_OBJECT *a0), (a0)) \
    FUNCTION(int, OBJ_obj2txt, (char *a0, int a1, const ASN1_OBJECT *a2, int a3), (a0, a1, a2, a3)) \
    FUNCTION(ASN1_OBJECT *, OBJ_txt2obj, (const char *a0, int a1), (a0, a1)) \
    PROCEDURE(OPENSSL_sk_free, (OPENSSL_STACK *a0), (a0)) \
    FUNCTION(OPENSSL_STACK *, OPENSSL_sk_new_null, (void), ()) \
    FUNCTION(int, OPENSSL_sk_num, (const OPENSSL_STACK *a0), (a0)) \
    PROCEDURE(OPENSSL_sk_pop_free, (OPENSSL_STACK *a0, void (*a1)(void *)), (a0, a1)) \
    FUNCTION(int, OPENSSL_sk_push, (OPENSSL_STACK *a0, const void *a1), (a0, a1)) \
    FUNCTION(void *, OPENSSL_sk_value, (const OPENSSL_STACK *a0, int a1), (a0, a1)) \
    FUNCTION(EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO *a0, EVP_PKEY **a1, pem_password_cb *a2, void *a3), (a0, a1, a2, a3)) \
    FUNCTION(EVP_PKEY *, PEM_read_bio_PUBKEY, (BIO *a0, EVP_PKEY **a1, pem_password_cb *a2, void *a3), (a0, a1, a2, a3)) \
    FUNCTION(X509 *, PEM_read_bio_X509, (BIO *a0, X509 **a1, pem_password_cb *a2, void *a3), (a0, a1, a2, a3)) \
    PROCEDURE(X509_ALGOR_get0, (const ASN1_OBJECT **a0, int *a1, const void **a2, const X509_ALGOR *a3), (a0, a1, a2, a3)) \
    PROCEDURE(X509_free, (X509 *a0), (a0)) \
    FUNCTION(const ASN1_TIME *, X509_get0_notAfter, (const X509 *a0), (a0)) \
    FUNCTION(const ASN1_TIME *, X509_get0_notBefore, (const X509 *a0), (a0)) \
    FUNCTION(EVP_PKEY *, X509_get0_pubkey, (const X509 *a0), (a0)) \
    FUNCTION(int, X509_get_ext_by_OBJ, (const X509 *a0, const ASN1_OBJECT *a1, int a2), (a0, a1, a2)) \
    FUNCTION(X509_NAME *, X509_get_issuer_name, (const X509 *a0), (a0)) \
    FUNCTION(ASN1_INTEGER *, X509_get_serialNumber, (X509 *a0), (a0)) \
    FUNCTION(int, X509_get_signature_nid, (const X509 *a0), (a0)) \
    FUNCTION(X509_NAME *, X509_get_subject_name, (const X509 *a0), (a0)) \
    FUNCTION(int, X509_NAME_print_ex, (BIO *a0, const X509_NAME *a1, int a2, unsigned long a3), (a0, a1, a2, a3)) \
    FUNCTION(int, X509_self_signed, (X509 *a0, int a1), (a0, a1)) \
    FUNCTION(int, X509_STORE_add_cert, (X509_STORE *a0, X509 *a1), (a0, a1)) \
    PROCEDURE(X509_STORE_CTX_free, (X509_STORE_CTX *a0), (a0)) \
    FUNCTION(STACK_OF(X509) *, X509_STORE_CTX_get0_chain, (const X509_STORE_CTX *a0), (a0)) \
    FUNCTION(X509_VERIFY_PARAM *, X509_STORE_CTX_get0_param, (const X509_STORE_CTX *a0), (a0)) \
    FUNCTION(X509 *, X509_STORE_CTX_get_current_cert, (const X509_STORE_CTX *a0), (a0)) \
    FUNCTION(int, X509_STORE_CTX_get_error, (const X509_STORE_CTX *a0), (a0)) \
    FUNCTION(int, X509_STORE_CTX_get_error_depth, (const X509_STORE_CTX *a0), (a0)) \
    FUNCTION(int, X509_STORE_CTX_init, (X509_STORE_CTX *a0, X509_STORE *a1, X509 *a2, STACK_OF(X509) *a3), (a0, a1, a2, a3)) \
    FUNCTION(X509_STORE_CTX *, X509_STORE_CTX_new, (void), ()) \
    PROCEDURE(X509_STORE_free, (X509_STORE *a0), (a0)) \
    FUNCTION(X509_STORE *, X509_STORE_new, (void), ()) \
    FUNCTION(int, X509_up_ref, (X509 *a0), (a0)) \
    FUNCTION(int, X509_verify, (X509 *a0, EVP_PKEY *a1), (a0, a1)) \
    FUNCTION(int, X509_verify_cert, (X509_STORE_CTX *a0), (a0)) \
    FUNCTION(const char *, X509_verify_cert_error_string, (long a0), (a0)) \
    FUNCTION(int, X509_VERIFY_PARAM_set_flags, (X509_VERIFY_PARAM *a0, unsigned long a1), (a0, a1)) \
    PROCEDURE(X509_VERIFY_PARAM_set_time, (X509_VERIFY_PARAM *a0, time_t a1), (a0, a1))


#define POINTER_FIELD(ret, name, params, args) __typeof__(&name) name;
#define POINTER_FIELD_VOID(name, params, args) __typeof__(&name) name;
static struct {
    OPENSSL_IMPORTS(POINTER_FIELD, POINTER_FIELD_VOID)
} libcrypto;

// The soname of OpenSSL 3's libcrypto (Debian: libssl3 / libssl3t64), the ABI these headers describe.
static const char *const library_name = "libcrypto.so.3";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void fail(const char *what, const char *detail) {
    // Nothing can be checked without it, so this is the usage-or-environment status (exit-status.md).
    fprintf(stderr, "receipt-explorer: %s %s (%s): install OpenSSL 3 (Debian: apt install libssl3)\n",
            library_name, what, detail ? detail : "no detail");
    exit(2);
}

// Settings made once, before libcrypto's first use; what each saves a one-shot `verify` is in
// docs/performance.md ("Start-up"). The configuration file is still read, as OpenSSL's default is.
static void configure(void *handle) {
    __typeof__(&OPENSSL_init_crypto) init = (__typeof__(&OPENSSL_init_crypto))dlsym(handle, "OPENSSL_init_crypto");
    __typeof__(&RAND_set_DRBG_type) set_drbg = (__typeof__(&RAND_set_DRBG_type))dlsym(handle, "RAND_set_DRBG_type");
    if (!init || !set_drbg) fail("lacks OPENSSL_init_crypto or RAND_set_DRBG_type", dlerror());
    // No clean-up at exit: the process is ending, and freeing every table OpenSSL built was 1.3 M
    // instructions.
    if (!init(OPENSSL_INIT_NO_ATEXIT, NULL)) fail("could not be initialised", NULL);
    // The random bits a verify needs (OpenSSL blinds its point arithmetic) come from the hash DRBG
    // over SHA-256, whose digest verification fetches anyway. The default CTR-DRBG fetched AES,
    // building OpenSSL's whole table of ciphers first (3.2 M instructions).
    // A build that refuses it (no such DRBG in its providers) keeps its default: only slower.
    // (ERR_clear_error through the table: the forwarding one would wait on this very load.)
    if (!set_drbg(NULL, "HASH-DRBG", NULL, NULL, "SHA256")) libcrypto.ERR_clear_error();
}

static void load_library(void) {
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) fail("could not be loaded", dlerror());
#define RESOLVE(ret, name, params, args)                                        \
    if (!(*(void **)&libcrypto.name = dlsym(handle, #name))) fail("lacks " #name, dlerror());
#define RESOLVE_VOID(name, params, args) RESOLVE(void, name, params, args)
    OPENSSL_IMPORTS(RESOLVE, RESOLVE_VOID)
#undef RESOLVE
#undef RESOLVE_VOID
    configure(handle);
}

// pthread_once is one acquire load once it has run: the cost of a forwarded call is that and an
// indirect jump, next to microseconds of signature checking.
#define FORWARD(ret, name, params, args)                                        \
    ret name params {                                                           \
        pthread_once(&load_once, load_library);                                 \
        return libcrypto.name args;                                             \
    }
#define FORWARD_VOID(name, params, args)                                        \
    void name params {                                                          \
        pthread_once(&load_once, load_library);                                 \
        libcrypto.name args;                                                    \
    }
OPENSSL_IMPORTS(FORWARD, FORWARD_VOID)

#endif
