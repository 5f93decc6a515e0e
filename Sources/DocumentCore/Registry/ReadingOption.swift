/// An option that changes how an input is read or verified. Every such option is applied or refused
/// (exit status 2, naming the option and the kind): never silently ignored. Which kinds use which
/// option each format declares (`DocumentFormat.optionUse`); `OptionTable` assembles them into the
/// one table the commands, the batch lines and the docs read.
public enum ReadingOption: String, CaseIterable, Sendable, Comparable {
    case at = "--at"
    case environment = "--environment"
    case bundleID = "--bundle-id"
    case appAppleID = "--app-apple-id"
    case appVersion = "--app-version"
    case root = "--root"
    case key = "--key"
    case keyID = "--key-id"
    case deviceID = "--device-id"
    case expect = "--expect"
    case noValidate = "--no-validate"

    /// The flag as the user types it.
    public var flag: String { rawValue }

    public static func < (a: ReadingOption, b: ReadingOption) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Whether a kind uses an option.
public enum OptionUse: Sendable, Equatable {
    /// Applied; `what`: what it does for the kind, for the docs' table ("the expiration step and
    /// active subscriptions").
    case applies(String)
    /// Refused; `why`: what the kind lacks, after "<option> does not apply to <kind>: " ("it carries
    /// no device hash").
    case refused(String)

    public var applies: Bool { if case .applies = self { true } else { false } }
}

/// The one table of options × kinds, assembled from the formats' declarations.
public enum OptionTable {
    /// How `kind` uses `option` (its format's answer).
    public static func use(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        FormatRegistry.format(of: kind).optionUse(option, kind: kind)
    }

    /// The refusal of the first option in `given` (table order) that `kind` cannot use, as one
    /// sentence: "--device-id does not apply to a StoreKit 2 transaction: it carries no device hash";
    /// nil when it uses them all.
    public static func refusal(_ given: Set<ReadingOption>, kind: DocumentKind) -> OptionRefusal? {
        for option in given.sorted() {
            if case .refused(let why) = use(option, kind: kind) {
                return OptionRefusal(option: option, kind: kind, message: "\(option.flag) does not apply to \(kind.summary): \(why)")
            }
        }
        return nil
    }
}

/// An option refused for an input's kind (`OptionTable.refusal`): the command exits 2 with `message`; a
/// batch line gets it as its error (`option-not-applicable`).
public struct OptionRefusal: Sendable, Equatable {
    public var option: ReadingOption
    public var kind: DocumentKind
    /// Terminal-safe (the kind's summary is escaped).
    public var message: String
    /// The code of a batch line's error.
    public static let code = "option-not-applicable"
}

extension Document {
    /// The refusal of the first option in `given` this document's kind cannot use; nil: all apply.
    public func refusal(of given: Set<ReadingOption>) -> OptionRefusal? { OptionTable.refusal(given, kind: kind) }
}

/// The reasons the formats give, worded once.
public enum OptionWhy {
    public static let notSigned = "it is not signed, so there is nothing to verify"
    public static let nothingVerified = "nothing in it is verified"
    public static let notDeveloperSigned = "it is not a developer-signed JWS (promotional offer, introductory-offer eligibility, Advanced Commerce request, App Store Server API token)"
    public static let noDeviceHash = "it carries no device hash"
    public static let x5cChain = "its signature is checked against its x5c chain to Apple, not a developer key"
    public static let expect = "the kind is compared with the one named"
}
