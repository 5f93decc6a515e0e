// macOS only: Homebrew's openssl@3 include and library paths (pkg-config libcrypto) and the link to
// libcrypto, for COpenSSL. Linux loads libcrypto at its first use instead (COpenSSL/libcrypto_loader.c).
#include <openssl/opensslv.h>
