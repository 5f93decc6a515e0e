/// Shared libraries loaded with dlopen rather than linked, by the names each system gives them.
public enum SharedLibraries {
    /// libcurl, tried in order (the `api` commands only; CCurl loads it at the first request).
    /// Debian's libcurl4 installs libcurl.so.4; macOS has /usr/lib/libcurl.4.dylib.
    public static let curl: [String] = HostSystem.current == .macOS
        ? ["/usr/lib/libcurl.4.dylib", "libcurl.4.dylib", "libcurl.dylib"]
        : ["libcurl.so.4", "libcurl.so"]
}
