import ByteText
import JSONLenient
import JWSKit
import DocumentCore

/// How the explorer's outline names a StoreKit document's layers (a token alone, a JSON body, a
/// developer-signed token): a token's text is "token" (with its path in a body or a parent payload)
/// and shows its kind and header; its decoded parts are "header", "payload" (every field with its
/// meaning in Apple's schema), "signature" (r and s); an Advanced Commerce request is its decoded
/// JSON; a body's own JSON is "body". A layer outside the model (a paste's outer text) shows no row.
struct JWSOutlineWording: OutlineWording {
    enum Part { case token(Int), header, payload(Int), signature, request, body }
    /// What each layer is, by layer index.
    let parts: [Part?]

    init(_ document: Document) {
        var parts = [Part?](repeating: nil, count: document.layers.count)
        if let model = document.jws {
            if model.body != nil { parts[LayerID.file.index] = .body }
            for (i, token) in model.tokens.enumerated() {
                let ids = token.layers
                parts[ids.token.index] = .token(i)
                if let header = ids.header { parts[header.index] = .header }
                if let payload = ids.payload { parts[payload.index] = .payload(i) }
                if let signature = ids.signature { parts[signature.index] = .signature }
                if let request = ids.request { parts[request.index] = .request }
            }
        }
        self.parts = parts
    }

    func heading(of layer: LayerID, in document: Document) -> LayerHeading? {
        guard layer.index < parts.count, let part = parts[layer.index], let model = document.jws else { return nil }
        switch part {
        case .token(let i):
            let token = model.tokens[i]
            // Terminal-safe: the kind's label is ours and `headerSummary` escapes the alg.
            return LayerHeading(token.path.map { "token " + $0 } ?? "token", value: "\(token.label) · \(token.headerSummary)")
        case .header: return LayerHeading("header")
        case .payload: return LayerHeading("payload")
        case .signature:
            let count = document.layer(layer).bytes.count
            return LayerHeading("signature", value: "\(count) bytes" + (count == 64 ? " r‖s" : ""))
        case .request: return LayerHeading("request (base64 → JSON)")
        case .body: return LayerHeading("body")
        }
    }

    func fields(of layer: LayerID, in document: Document) -> [Int: FieldWording] {
        guard layer.index < parts.count, case .payload(let i)? = parts[layer.index], let model = document.jws else { return [:] }
        return Self.wording(model.tokens[i].document.payload.fields)
    }

    /// An ES256 signature's two halves.
    func parts(of layer: LayerID, in document: Document) -> [LayerPart] {
        guard layer.index < parts.count, case .signature? = parts[layer.index], document.layer(layer).bytes.count == 64 else { return [] }
        return [LayerPart("r", 0..<32), LayerPart("s", 32..<64)]
    }

    /// A token's row: what it is made of and what it says, so that the first row of a StoreKit
    /// document answers "what is this, and is it valid?" without a trip to the summary view.
    func details(of layer: LayerID, in document: Document) -> [DetailLine] {
        guard layer.index < parts.count, case .token(let index)? = parts[layer.index], let model = document.jws else { return [] }
        let token = model.tokens[index]
        var out: [DetailLine] = []
        out += Self.labelled("parts", JWSExplain.segmentLines(token).map { DetailLine(nil, $0) })
        let nested = model.nested(in: index)
        if !nested.isEmpty {
            let paths = nested.map { $0.path ?? "token" }.joined(separator: ", ")
            out.append(DetailLine("nested", "\(nested.count) token\(nested.count == 1 ? "" : "s"): \(paths)"))
        }
        let headline = token.document.payload.headline
        let width = headline.map { $0.path.count }.max() ?? 0
        // Under their own heading, two columns in: ids and product names are long, the pane narrow.
        if !headline.isEmpty { out.append(DetailLine(nil, "headline")) }
        for field in headline {
            out.append(DetailLine(nil, "  " + field.path + String(repeating: " ", count: width - field.path.count + 2) + field.value))
        }
        out += Self.labelled("verification", token.report == nil ? [DetailLine(nil, "not verified", .dim)]
                                                                 : Self.verification(document.tokenReport(index)))
        return out
    }

    /// The verdict first (as `verify` words it), then the steps that failed (the summary view lists every step).
    static func verification(_ report: VerificationReport) -> [DetailLine] {
        let failed = report.steps.filter { $0.status == .failed }
        return [.safe(VerificationText.verdictLine(report), report.verdict.valid ? .ok : .fail)]
            + failed.map { .safe(TerminalSafe.escape($0.title) + ": " + TerminalSafe.escape($0.message), .fail) }
    }

    /// `label` on the first line; the others continue under it.
    static func labelled(_ label: String, _ lines: [DetailLine]) -> [DetailLine] {
        lines.enumerated().map { i, line in
            var labelled = line  // keeps whether the text is terminal-safe already
            labelled.label = i == 0 ? label : ""
            return labelled
        }
    }

    /// Decoded fields by JSON member index (the first of a repeated key wins, as the schema reads it).
    static func wording(_ fields: [StoreKitField]) -> [Int: FieldWording] {
        var out: [Int: FieldWording] = [:]
        for field in fields where out[field.member.index] == nil {
            let display: String?
            switch field.value {
            case .nestedToken, .object, .array: display = nil
            default: display = field.value.display
            }
            out[field.member.index] = FieldWording(display: display, meaning: field.spec?.meaningWithVersion ?? "not in Apple's schema: kept as it is")
        }
        return out
    }
}

extension JWSOutlineWording {
    public func summary(of document: Document) -> [DetailLine]? { TokenSummaryLines.lines(document) }
}

extension StoreKitTokenFormat {
    public func outlineWording(of document: Document) -> any OutlineWording { JWSOutlineWording(document) }
}

extension StoreKitJSONFormat {
    public func outlineWording(of document: Document) -> any OutlineWording { JWSOutlineWording(document) }
}

extension DeveloperTokenFormat {
    public func outlineWording(of document: Document) -> any OutlineWording { JWSOutlineWording(document) }
}
