import Foundation
import Platform

/// What the machine running the tests offers, for tests that need a Linux facility: they are
/// skipped elsewhere (macOS CI) instead of failing or passing without checking anything.
public enum Host {
    /// /proc with per-process files (`/proc/<pid>/stat`, `/proc/self/mem`, `/proc/self/exe`).
    public static let hasProcFS = FileManager.default.fileExists(atPath: "/proc/self/stat")

    public static let isLinux = HostSystem.current == .linux
}
