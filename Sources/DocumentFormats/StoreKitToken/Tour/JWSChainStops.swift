import ASN1Lenient
import JSONLenient
import JWSKit
import ByteText
import DocumentCore
import DocumentTour

/// The StoreKit route's middle: a notification's `data` and the token nested in it, then the x5c
/// chain (Apple's marker OIDs on the leaf and the intermediate) and why the leaf's validity is
/// judged at `signedDate`.
extension JWSRoute {
    func dataStops(_ layer: LayerID, _ tree: JSONTree) -> [TourStep] {
        guard let root = tree.root, let member = tree.member("data", in: root), let value = tree.value(ofMember: member),
              tree[value].kind == .object else { return [] }
        let keys = tree.members(of: value).compactMap { tree.key(ofMember: $0) }.map(TerminalSafe.escape)
        var steps = [TourStep(node: NodeID(layer, member), focus: .whole, range: tree[member].range, title: "The notification's data",
                              lesson: ["text: data holds " + keys.joined(separator: ", "),
                                       "meaning: what the notification is about: the app (bundleId, appAppleId), the environment, and the transaction and renewal info as tokens of their own, signed separately"])]
        guard let index = document.jws?.tokens.firstIndex(where: { $0.layers.token == token.layers.token }),
              let nested = document.jws?.nested(in: index).first else { return steps }
        let path = TerminalSafe.escape(nested.path ?? "a nested token")
        let count = nested.document.header.certificates.count
        let text = document.layer(nested.layers.token).bytes.count
        steps.append(TourStep(node: NodeID(nested.layers.token, 0), focus: .whole, range: 0..<text, title: "A nested token: \(path)",
                              lesson: ["text: a JSON string of \(NumberText.grouped(text)) characters in the payload: a whole compact JWS, \(nested.label)",
                                       "meaning: the outer signature covers these characters (they are part of the payload), and the token carries its own header, payload and signature",
                                       "meaning: verify it on its own as well: a server that stores the transaction keeps this token, not the notification"],
                              check: SelfCheck("How many certificates does the nested token's own x5c carry?",
                                               right: ("\(count)", "its header has its own x5c with \(count) certificate\(count == 1 ? "" : "s"): each token can be verified without the one around it"),
                                               wrong: [("0", "a nested token is a full JWS: its header carries the chain it was signed with"),
                                                       ("\(count + 1)", "count the entries of the nested header's x5c: \(count); the outer token's chain is not added to it")],
                                               seed: text)))
        return steps
    }

    func chainStops() -> [TourStep] {
        var steps: [TourStep] = []
        let layers = token.layers.certificates
        guard let leafLayer = layers.first, let leafTree = document.layer(leafLayer).tree, !leafTree.nodes.isEmpty else { return [] }
        let leafLessons = TourLessons(tree: leafTree, layer: leafLayer)
        let leaf = CertificateLayout(tree: leafTree, root: 0)
        let leafRoute = CertificateRoute(lessons: leafLessons, root: 0)
        let subject = leaf?.subject.flatMap { s in leafRoute?.nameText(s) }.map { "subject: " + $0 } ?? "subject: (unreadable)"
        if let oid = leaf?.extensionOID(leafTree, CertificateWords.appleLeafMarker) {
            let asked = leafLessons.oidCheck(oid)
            steps.append(leafLessons.step(oid, .content, "x5c[0], the leaf: Apple's marker OID",
                                          [subject,
                                           "meaning: an extension with OID \(CertificateWords.appleLeafMarker) marks a certificate Apple issued for signing receipts and StoreKit data; a verifier requires it on the leaf, so a certificate Apple issued for anything else is refused"]
                                          + leafLessons.oidArcs(oid, hiding: asked?.hiddenArc),
                                          check: asked?.check, withheld: asked == nil ? [] : [.content]))
        } else {
            steps.append(leafLessons.step(0, .length, "x5c[0], the leaf: no marker OID",
                                          [subject, "meaning: the leaf lacks Apple's marker extension \(CertificateWords.appleLeafMarker), so a verifier refuses it even if the chain verifies"]
                                          + (layers.count == 1 ? ["meaning: one certificate alone, as Xcode's StoreKit testing signs: such tokens are for local testing and never chain to Apple's root"] : []),
                                          check: leafLessons.lengthCheck(0), withheld: [.length]))
        }
        if layers.count > 1, let tree = document.layer(layers[1]).tree, !tree.nodes.isEmpty {
            let lessons = TourLessons(tree: tree, layer: layers[1])
            let layout = CertificateLayout(tree: tree, root: 0)
            if let oid = layout?.extensionOID(tree, CertificateWords.appleIntermediateMarker) {
                steps.append(lessons.step(oid, .content, "x5c[1], the intermediate: its marker OID",
                                          ["meaning: \(CertificateWords.appleIntermediateMarker) marks Apple's WWDR intermediate; the leaf must be signed by a certificate carrying it, and it by Apple's root (x5c[2], which the verifier already trusts: the copy in the token is never the anchor)"]))
            } else {
                steps.append(lessons.step(0, .identifier, "x5c[1]: no intermediate marker OID",
                                          ["meaning: Apple's WWDR intermediate carries \(CertificateWords.appleIntermediateMarker); this one does not, so the chain is refused"]))
            }
        }
        if let validity = leaf?.validity, let route = leafRoute {
            steps.append(validityStop(validity, leafLessons, route))
        }
        return steps
    }

    /// The leaf's validity and the token's signedDate: the moment the chain is judged at.
    func validityStop(_ validity: Int, _ lessons: TourLessons, _ route: CertificateRoute) -> TourStep {
        let times = route.times()
        let name = jws.payload.signedDate != nil ? "signedDate" : "receiptCreationDate"
        var lesson = route.validityLessons()
        lesson.append("meaning: Apple's signing leaves are replaced about every two years, but a token is kept for years (a transaction history reaches back to the first purchase); judged at today's date, every older token would fail once its leaf expired")
        lesson.append("meaning: so the chain is judged at the moment the token was signed, its \(name)" + (jws.payload.validityDate.map { ": \(ISODate.string(milliseconds: $0))" } ?? ", which this payload lacks"))
        var check: SelfCheck?
        if let ms = jws.payload.validityDate, times.count == 2, let from = times[0].value, let to = times[1].value {
            let at = Int64((ms / 1000).rounded(.down))
            let before = at < from.epochSeconds, after = at > to.epochSeconds
            let when = ISODate.string(milliseconds: ms)
            let inside = ("yes: \(name) is inside the leaf's validity", "\(from.iso8601) ≤ \(when) ≤ \(to.iso8601): the time step passes whatever today's date is")
            let early = ("no: \(name) is before notBefore", "notBefore is \(from.iso8601), and \(when) is \(before ? "before" : "not before") it")
            let late = ("no: \(name) is after notAfter", "notAfter is \(to.iso8601), and \(when) is \(after ? "after" : "not after") it")
            let right = before ? early : (after ? late : inside)
            check = SelfCheck("Was the leaf valid at this token's \(name)?", right: right,
                              wrong: [inside, early, late].filter { $0.0 != right.0 }, seed: Int(at % 5))
        }
        return lessons.step(validity, .whole, "Why validity is judged at \(name)", lesson,
                            check: check ?? lessons.lengthCheck(validity), withheld: [.identifier, .length, .content])
    }
}
