import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// A device identifier as the receipt's SHA-1 hash (attribute 5) uses it: the raw bytes of an
/// iOS `identifierForVendor` UUID (16 bytes) or of a Mac's primary MAC address (6 bytes).
public struct DeviceIdentifier: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case identifierForVendor = "identifierForVendor"
        case macAddress = "MAC address"
    }

    public var kind: Kind
    public var bytes: [UInt8]

    public init(kind: Kind, bytes: [UInt8]) {
        self.kind = kind
        self.bytes = bytes
    }

    /// Accepts `3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD` (UUID, any case) or `6c:40:08:b5:94:5e` /
    /// `6c-40-08-b5-94-5e` (MAC address). Surrounding whitespace is ignored.
    public static func parse(_ text: String) throws -> DeviceIdentifier {
        let s = PlainText.trimmingWhitespaceAndNewlines(text)
        if s.isEmpty { throw DeviceIdentifierError("empty device identifier") }
        let chars = Array(s)

        // UUID: 8-4-4-4-12 hex digits.
        if chars.count == 36 {
            let dashes = [8, 13, 18, 23]
            guard dashes.allSatisfy({ chars[$0] == "-" }) else {
                throw DeviceIdentifierError("'\(s)' is not a UUID: expected dashes after 8, 4, 4 and 4 hex digits (like 3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD)")
            }
            let hex = String(chars.enumerated().filter { !dashes.contains($0.offset) }.map(\.element))
            guard let bytes = Hex.bytes(hex) else {
                throw DeviceIdentifierError("'\(s)' is not a UUID: only hex digits may appear between the dashes")
            }
            return DeviceIdentifier(kind: .identifierForVendor, bytes: bytes)
        }

        // MAC address: six pairs of hex digits separated by ':' or '-' (one kind throughout).
        if chars.count == 17 {
            let separator = chars[2]
            guard separator == ":" || separator == "-",
                  [2, 5, 8, 11, 14].allSatisfy({ chars[$0] == separator }) else {
                throw DeviceIdentifierError("'\(s)' is not a MAC address: expected six hex pairs separated by ':' or '-' (like 6c:40:08:b5:94:5e)")
            }
            let hex = String(chars.enumerated().filter { $0.offset % 3 != 2 }.map(\.element))
            guard let bytes = Hex.bytes(hex) else {
                throw DeviceIdentifierError("'\(s)' is not a MAC address: only hex digits may appear between the separators")
            }
            return DeviceIdentifier(kind: .macAddress, bytes: bytes)
        }

        throw DeviceIdentifierError("'\(s)' is neither an identifierForVendor UUID (36 characters, like 3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD) nor a MAC address (17 characters, like 6c:40:08:b5:94:5e)")
    }

    /// `identifierForVendor 3B76A7BD-…` / `MAC address 6c:40:08:b5:94:5e`, canonical form.
    public var description: String {
        switch kind {
        case .macAddress:
            return "\(kind.rawValue) \(Hex.string(bytes, .lower, separator: ":"))"
        case .identifierForVendor:
            let h = Hex.string(bytes, .upper)
            guard h.count == 32 else { return "\(kind.rawValue) \(h)" }
            let parts = [h.prefix(8), h.dropFirst(8).prefix(4), h.dropFirst(12).prefix(4),
                         h.dropFirst(16).prefix(4), h.dropFirst(20)]
            return "\(kind.rawValue) \(parts.joined(separator: "-"))"
        }
    }
}

public struct DeviceIdentifierError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The receipt's device binding: SHA-1(device identifier ‖ opaque value (attribute 4) ‖ the
/// bundle identifier attribute's (2) whole value, i.e. the UTF8String TLV) must equal attribute 5.
public enum DeviceHash {
    public static func compute(deviceID: [UInt8], opaque: [UInt8], bundleIDTLV: [UInt8]) -> [UInt8] {
        Digest.sha1(deviceID + opaque + bundleIDTLV)
    }

    /// The "device-hash" step, with every input and the arithmetic spelled out in `details`.
    /// - Parameters:
    ///   - device: nil when the user gave no identifier (the step is then not checked).
    ///   - opaque: attribute 4's value; bundleIDTLV: attribute 2's value (the whole UTF8String TLV).
    ///   - expected: attribute 5's value; nil when the receipt has none.
    public static func step(device: DeviceIdentifier?, opaque: [UInt8]?, bundleIDTLV: [UInt8]?,
                            expected: [UInt8]?) -> ValidationStep {
        guard let device else { return ValidationStep(.deviceHash, .notChecked(.notGiven(.deviceID))) }
        var missing: [Int] = []
        if opaque == nil { missing.append(4) }
        if bundleIDTLV == nil { missing.append(2) }
        if expected == nil { missing.append(5) }
        guard let opaque, let bundleIDTLV, let expected else {
            return ValidationStep(.deviceHash, .notChecked(.missingAttributes(missing)), details: ["device: \(device)"])
        }

        let computed = compute(deviceID: device.bytes, opaque: opaque, bundleIDTLV: bundleIDTLV)
        let total = device.bytes.count + opaque.count + bundleIDTLV.count
        let details = [
            "device identifier (\(device.kind.rawValue)): \(Hex.string(device.bytes, .upper, separator: " ")) (\(SignatureValidation.bytesText(device.bytes.count)))",
            "opaque value, attribute 4: \(Hex.string(opaque, .upper, separator: " ")) (\(SignatureValidation.bytesText(opaque.count)))",
            "bundle identifier, attribute 2 (whole UTF8String TLV): \(Hex.string(bundleIDTLV, .upper, separator: " ")) (\(SignatureValidation.bytesText(bundleIDTLV.count)))",
            "concatenation: \(device.bytes.count) + \(opaque.count) + \(bundleIDTLV.count) = \(total) bytes",
            "computed SHA-1: \(Hex.string(computed, .upper, separator: " "))",
            "expected, attribute 5: \(Hex.string(expected, .upper, separator: " ")) (\(SignatureValidation.bytesText(expected.count)))",
        ]
        if computed == expected {
            return ValidationStep(.deviceHash, .passed, details: details)
        }
        return ValidationStep(.deviceHash, .failed(.deviceHashMismatch(device: "\(device)")), details: details)
    }
}
