/// The one registry of object identifier names. Columns: our own name (`table`: the names the
/// tree, `explain`, `json` and the explorer show, with Apple's arcs), OpenSSL's long name
/// (`openSSLLongNames`, what `dump --format openssl` prints, as `openssl asn1parse` does), the
/// RDN abbreviation of X.520 name attributes (`CN`, `O`, …) and the NIST name of elliptic curves.
public enum OIDNames {
    /// Our name, else OpenSSL's long name, else nil.
    public static func name(for dotted: String) -> String? { table[dotted] ?? openSSLLongNames[dotted] }

    /// Exactly what `openssl asn1parse` prints for the OID (nil: it prints the dotted form).
    public static func openSSLName(for dotted: String) -> String? { openSSLLongNames[dotted] }

    /// `CN` for commonName (2.5.4.3), as in `CN=…, O=…, C=…` (RFC 4514's short names).
    public static func rdnAbbreviation(for dotted: String) -> String? { rdnAbbreviations[dotted] }

    /// OpenSSL's short name for a name attribute (`openssl list -objects`, OpenSSL 3.0), as RFC 2253
    /// names print them; nil where OpenSSL prints the dotted OID.
    public static func openSSLShortName(for dotted: String) -> String? { openSSLShortNames[dotted] }

    static let openSSLShortNames: [String: String] = [
        "2.5.4.3": "CN", "2.5.4.4": "SN", "2.5.4.5": "serialNumber", "2.5.4.6": "C", "2.5.4.7": "L",
        "2.5.4.8": "ST", "2.5.4.9": "street", "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.12": "title",
        "2.5.4.13": "description", "2.5.4.15": "businessCategory", "2.5.4.17": "postalCode",
        "2.5.4.41": "name", "2.5.4.42": "GN", "2.5.4.43": "initials", "2.5.4.44": "generationQualifier",
        "2.5.4.46": "dnQualifier", "2.5.4.65": "pseudonym", "2.5.4.97": "organizationIdentifier",
        "0.9.2342.19200300.100.1.1": "UID", "0.9.2342.19200300.100.1.25": "DC",
        "1.2.840.113549.1.9.1": "emailAddress",
        "1.3.6.1.4.1.311.60.2.1.1": "jurisdictionL", "1.3.6.1.4.1.311.60.2.1.2": "jurisdictionST",
        "1.3.6.1.4.1.311.60.2.1.3": "jurisdictionC",
    ]

    /// `P-256` for prime256v1 (1.2.840.10045.3.1.7): the NIST name certificate readers know.
    public static func curveName(for dotted: String) -> String? { nistCurves[dotted] }

    static let rdnAbbreviations: [String: String] = [
        "2.5.4.3": "CN", "2.5.4.4": "SN", "2.5.4.5": "serialNumber", "2.5.4.6": "C", "2.5.4.7": "L",
        "2.5.4.8": "ST", "2.5.4.9": "STREET", "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.12": "title",
        "2.5.4.42": "GN", "0.9.2342.19200300.100.1.1": "UID", "0.9.2342.19200300.100.1.25": "DC",
        "1.2.840.113549.1.9.1": "emailAddress",
    ]

    static let nistCurves: [String: String] = [
        "1.2.840.10045.3.1.7": "P-256", "1.3.132.0.34": "P-384", "1.3.132.0.35": "P-521",
    ]

    /// Our names where they differ from OpenSSL's long name (which `name(for:)` falls back to, so a
    /// name both agree on is written once, there), and Apple's arcs, which OpenSSL does not name.
    static let table: [String: String] = [
        // PKCS#7 / CMS content types
        "1.2.840.113549.1.7.1": "data",
        "1.2.840.113549.1.7.2": "signedData",
        "1.2.840.113549.1.7.3": "envelopedData",
        "1.2.840.113549.1.7.4": "signedAndEnvelopedData",
        "1.2.840.113549.1.7.5": "digestedData",
        "1.2.840.113549.1.7.6": "encryptedData",
        "1.2.840.113549.1.9.16.1.4": "timestampedData (TSTInfo)",
        // PKCS#9 attributes
        "1.2.840.113549.1.9.15": "smimeCapabilities",
        "1.2.840.113549.1.9.16.2.12": "signingCertificate",
        "1.2.840.113549.1.9.16.2.47": "signingCertificateV2",
        "1.2.840.113549.1.9.52": "cmsAlgorithmProtection",
        // Signature and key algorithms
        "1.2.840.113549.1.1.10": "rsassa-pss",
        "1.2.840.10045.2.1": "ecPublicKey",
        // X.509 certificate extensions
        "2.5.29.14": "subjectKeyIdentifier",
        "2.5.29.15": "keyUsage",
        "2.5.29.17": "subjectAltName",
        "2.5.29.18": "issuerAltName",
        "2.5.29.19": "basicConstraints",
        "2.5.29.31": "cRLDistributionPoints",
        "2.5.29.32": "certificatePolicies",
        "2.5.29.32.0": "anyPolicy",
        "2.5.29.35": "authorityKeyIdentifier",
        "2.5.29.37": "extKeyUsage",
        "1.3.6.1.5.5.7.1.1": "authorityInfoAccess",
        "1.3.6.1.5.5.7.48.1": "ocsp",
        "1.3.6.1.5.5.7.48.2": "caIssuers",
        "1.3.6.1.5.5.7.2.1": "cps (policy qualifier)",
        "1.3.6.1.5.5.7.2.2": "userNotice (policy qualifier)",
        "1.3.6.1.5.5.7.3.1": "serverAuth",
        "1.3.6.1.5.5.7.3.2": "clientAuth",
        "1.3.6.1.5.5.7.3.3": "codeSigning",
        "1.3.6.1.5.5.7.3.4": "emailProtection",
        "1.3.6.1.5.5.7.3.8": "timeStamping",
        "1.3.6.1.5.5.7.3.9": "OCSPSigning",
        // Apple
        "1.2.840.113635.100.6.11.1": "Apple receipt signing (leaf marker)",
        "1.2.840.113635.100.6.2.1": "Apple WWDR intermediate (marker)",
        "1.2.840.113635.100.6.2.15": "Apple WWDR intermediate G5 (marker)",
        "1.2.840.113635.100.6.25": "Apple StoreKit certificate extension",
        "1.2.840.113635.100.5.1": "Apple certificate policy",
    ]
}
