import COpenSSL

/// The OpenSSL library this process runs against, which may differ from the headers it was built
/// with (a distribution upgrade swaps the shared library under the binary): for `--version`.
public enum OpenSSLVersion {
    /// `OpenSSL_version(OPENSSL_VERSION)`, e.g. "OpenSSL 3.0.13 30 Jan 2024".
    public static var runtime: String {
        guard let text = OpenSSL_version(OPENSSL_VERSION) else { return "OpenSSL (unknown version)" }
        return String(cString: text)
    }
}
