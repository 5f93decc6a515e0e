import COpenSSL

/// The OpenSSL this binary was built against, for `--version`. It is read from the headers, not asked
/// of libcrypto, so `--version` never loads libcrypto (issue 32); any OpenSSL 3.x runtime shares
/// its ABI (on Linux libcrypto.so.3 is loaded at the first signature check).
public enum OpenSSLVersion {
    /// `OPENSSL_VERSION_TEXT`, e.g. "OpenSSL 3.0.19 27 Jan 2026".
    public static let built: String = OPENSSL_VERSION_TEXT
}
