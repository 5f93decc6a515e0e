import ASN1Lenient
import ByteText

/// ISO 8601 UTC text for StoreKit's milliseconds since 1970 (`ISO8601Text`, always with milliseconds;
/// a year outside 0-9999 in the expanded form). Fractional milliseconds (Xcode writes them) are truncated.
public enum ISODate {
    public static func string(milliseconds: Double) -> String {
        guard milliseconds.isFinite, abs(milliseconds) < 1e16 else { return "out of range" }
        return ISO8601Text.string(epochMilliseconds: Int64(milliseconds.rounded(.down)), fraction: .always, farYears: .expanded)
    }
}
