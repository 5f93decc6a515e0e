@testable import ASN1Lenient
import ByteText
import Testing

/// The one implementation of each small concept (issue 19): hex, UTF-8, calendar and date digits
/// in ByteText; OID names in one registry; diagnostics made the same way by every code family.
@Suite struct SharedHelperTests {
    @Test func hexWritesEitherCaseWithOrWithoutSeparators() {
        #expect(Hex.string([0x30, 0x82, 0x0A], .upper) == "30820A")
        #expect(Hex.string([0x30, 0x82, 0x0A], .lower, separator: " ") == "30 82 0a")
        #expect(Hex.string([0x6C, 0x40, 0xB5], .lower, separator: ":") == "6c:40:b5")
        #expect(Hex.string([UInt8](), .upper) == "")
        #expect(Hex.byte(0x0F, .upper) == "0F")
        var out: [UInt8] = [0x5C]
        Hex.append(0xAB, to: &out, .lower)
        #expect(out == Array("\\ab".utf8))
    }

    @Test func hexReadsDigitsOfEitherCaseAndRefusesTheRest() {
        #expect(Hex.bytes("00ff7Fa0") == [0x00, 0xFF, 0x7F, 0xA0])
        #expect(Hex.bytes("") == [])
        #expect(Hex.bytes("abc") == nil)  // odd count
        #expect(Hex.bytes("0g") == nil)
        #expect(Hex.value(ofDigit: UInt8(ascii: "F")) == 15 && Hex.value(ofDigit: UInt8(ascii: "f")) == 15)
        #expect(Hex.value(ofDigit: UInt8(ascii: "G")) == nil)
    }

    @Test func utf8ValidatorRefusesOverlongsSurrogatesAndValuesPastTheLastScalar() {
        let valid: [UInt8] = Array("a é € 😀".utf8)
        #expect(UTF8Text.firstInvalid(valid, 0..<valid.count) == nil)
        #expect(UTF8Text.firstInvalid([0x61, 0xC0, 0xAF], 0..<3) == 1)  // overlong '/'
        #expect(UTF8Text.firstInvalid([0xED, 0xA0, 0x80], 0..<3) == 0)  // encoded surrogate
        #expect(UTF8Text.firstInvalid([0xF4, 0x90, 0x80, 0x80], 0..<4) == 0)  // past U+10FFFF
        #expect(UTF8Text.firstInvalid([0x61, 0xE2, 0x82, 0xAC], 0..<3) == 1)  // cut by the range's end
        #expect(UTF8Text.sequenceLength([0xE2, 0x82, 0xAC], at: 0, end: 3) == 3)
        let (euro, length) = UTF8Text.decode([0xE2, 0x82, 0xAC], at: 0)
        #expect(euro == "€" && length == 3)
        let (bad, badLength) = UTF8Text.decode([0xE2, 0x28, 0xAC], at: 0)
        #expect(bad == nil && badLength == 1)
    }

    @Test func calendarRoundTripsAndKnowsLeapYears() {
        #expect(GregorianCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(GregorianCalendar.days(year: 2015, month: 5, day: 23) == 16_578)
        #expect(GregorianCalendar.date(days: 16_578) == (2015, 5, 23))
        #expect(GregorianCalendar.date(days: -1) == (1969, 12, 31))
        #expect(GregorianCalendar.daysIn(month: 2, year: 2000) == 29)
        #expect(GregorianCalendar.daysIn(month: 2, year: 1900) == 28)
    }

    @Test func dateDigitsReadFixedWidthFieldsAndConsumeNothingOnAMiss() {
        var reader = DateDigits(Array("2015-05x".utf8))
        let year = reader.digits(4)
        let dash = reader.skip(0x2D)
        let tooMany = reader.digits(3)
        #expect(year == 2015 && dash && tooMany == nil && reader.position == 5)
        let month = reader.digits(2)
        let notDash = reader.skip(0x2D)
        let either = reader.skip(0x2D, or: 0x78)
        #expect(month == 5 && !notDash && either && reader.atEnd)
    }

    /// One wording for an unexpected character in every message (the base64 loader, ASN.1 times,
    /// receipt dates): a control byte is named in words, never written as `\x0A` that the output
    /// escaping would double.
    @Test func anUnexpectedCharacterIsNamedTheSameWayEverywhere() {
        let bytes: [UInt8] = [0x23, 0x0A, 0x20, 0xC3, 0xA9, 0xE2, 0x80, 0xAE, 0xC3]
        #expect(CharacterName.at(bytes, 0) == "character '#'")
        #expect(CharacterName.at(bytes, 1) == "byte 0x0A")
        #expect(CharacterName.at(bytes, 2) == "byte 0x20")
        #expect(CharacterName.at(bytes, 3) == "character U+00E9 'é'")
        #expect(CharacterName.at(bytes, 5) == "character U+202E")
        #expect(CharacterName.at(bytes, 8) == "byte 0xC3 (not UTF-8)")
        let utc = Array("240101000000\n".utf8)
        #expect(TimeValue.check(utc.withUnsafeBufferPointer { $0 }, 0..<utc.count, generalized: false)?.message
                == "malformed UTCTime: unexpected byte 0x0A at position 12")
    }

    /// `OIDNames.table` holds only what OpenSSL's column does not say the same way: a name both
    /// agree on is written once.
    @Test func oidNamesAreWrittenOnce() {
        let repeated = OIDNames.table.filter { OIDNames.openSSLLongNames[$0.key] == $0.value }.map(\.key)
        #expect(repeated.isEmpty, "named the same in both columns: \(repeated.sorted())")
        #expect(OIDNames.name(for: "2.5.4.3") == "commonName")
        #expect(OIDNames.name(for: "1.2.840.113549.1.7.2") == "signedData")
        #expect(OIDNames.openSSLName(for: "1.2.840.113549.1.7.2") == "pkcs7-signedData")
        #expect(OIDNames.name(for: "1.2.840.113635.100.6.11.1") == "Apple receipt signing (leaf marker)")
        #expect(OIDNames.openSSLName(for: "1.2.840.113635.100.6.11.1") == nil)
    }

    @Test func everyCodeFamilyMakesItsDiagnosticTheSameWay() {
        let d = ParserCode.trailingData.diagnostic("2 bytes follow", 10..<12, node: NodeIndex(3))
        #expect(d == Diagnostic(severity: .warning, code: ParserCode.trailingData.code, message: "2 bytes follow",
                                offset: 10, length: 2, node: NodeIndex(3)))
        let stated = ParserCode.trailingData.diagnostic("m", 0..<0, severity: .error)
        #expect(stated.severity == .error && stated.node == nil)
    }
}
