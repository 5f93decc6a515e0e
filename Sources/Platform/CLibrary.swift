// The one place the project names its C library (issue 35). Every other file imports Platform,
// which re-exports Glibc, Musl or Darwin; the POSIX calls keep their names and meanings on each.
// What differs between them (types, units, numbers, commands) is said in this module and nowhere
// else, in the manner of SwiftNIO's System.swift. PlatformBoundaryTests keeps it that way.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("receipt-explorer builds on Linux (Glibc, Musl) and macOS (Darwin)")
#endif

/// The system this binary was built for, for the few decisions that depend on it.
public enum HostSystem: String, Sendable {
    case linux, macOS

    public static let current: HostSystem = {
        #if os(macOS)
        return .macOS
        #else
        return .linux
        #endif
    }()
}

/// write(2), open(2) and close(2) under names a type with its own `write` or `close` method can
/// still call (inside such a type the unqualified name finds the method).
@inline(__always)
public func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, pointer, count)
}

@inline(__always)
public func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

@inline(__always)
public func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}
