/// getrusage(2) / wait4(2) figures whose units differ.
public enum ResourceUsage {
    /// Bytes in one unit of `ru_maxrss`: Linux reports kibibytes (getrusage(2)); macOS reports bytes,
    /// although its man page still says kilobytes (libuv, CPython's users and ruby-bench all measured
    /// bytes there and fixed their code; docs/manual/platforms.md).
    public static let maxResidentSetUnit: Int = HostSystem.current == .macOS ? 1 : 1024

    /// `ru_maxrss` as reported by this system (by getrusage, wait4 or Python's resource module,
    /// which passes the field through) in bytes.
    public static func bytes(fromMaxResidentSet value: Int) -> Int { value * maxResidentSetUnit }
}
