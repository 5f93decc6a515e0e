import JWSKit
import Testing

/// Apple's fields and values up to App Store Server API 1.21 / Notifications 2.21 (2026-04-27): each
/// decoded with its meaning and not flagged; what is still unknown is flagged with the schema date.
@Suite struct SchemaCoverageTests {
    /// Decodes a hand-built token and requires it to be of `kind` with no payload finding.
    func decodeClean(_ payload: String, as kind: StoreKitPayloadKind) -> JWSDocument {
        let d = JWSDocument.decode(text: token(payload: payload))
        #expect(d.payload.kind == kind)
        #expect(d.codes(.payload).isEmpty)
        #expect(d.payload.unknownFields.isEmpty)
        return d
    }

    @Test("a transaction's commitment, billing plan, revocation type and Advanced Commerce fields")
    func transactionFields() throws {
        let d = decodeClean(#"""
            {"transactionId":"2","appTransactionId":"7","offerPeriod":"P1M","revocationType":"REFUND_PRORATED","revocationPercentage":50000,\#
            "billingPlanType":"MONTHLY","commitmentInfo":{"billingPeriodNumber":3,"totalBillingPeriods":12,\#
            "commitmentExpiresDate":1767225600000,"commitmentPrice":119880},\#
            "advancedCommerceInfo":{"requestReferenceId":"r1","descriptors":{"displayName":"Pro","description":"All"},\#
            "items":[{"SKU":"a"}],"period":"P1M","estimatedTax":100,"taxCode":"C003","taxExclusivePrice":9990,"taxRate":"0.1"}}
            """#, as: .transaction)
        let p = d.payload
        #expect(p.value("revocationType") == .enumerated(raw: "REFUND_PRORATED", meaning: "refunded in part (see revocationPercentage)"))
        #expect(p.value("revocationPercentage") == .integer(50000))
        #expect(p.value("billingPlanType") == .enumerated(raw: "MONTHLY", meaning: "paid monthly within a 12-month commitment"))
        #expect(p.value("commitmentInfo") == .object)
        #expect(p.value("commitmentInfo.billingPeriodNumber") == .integer(3))
        #expect(p.value("commitmentInfo.totalBillingPeriods") == .integer(12))
        #expect(p.value("commitmentInfo.commitmentExpiresDate") == .date(milliseconds: 1767225600000, iso: "2026-01-01T00:00:00.000Z"))
        #expect(p.value("commitmentInfo.commitmentPrice") == .integer(119880))
        #expect(p.value("advancedCommerceInfo.descriptors.displayName") == .string("Pro"))
        #expect(p.value("advancedCommerceInfo.items") == .array(count: 1))
        #expect(p.value("advancedCommerceInfo.taxExclusivePrice") == .integer(9990))
        let spec = try #require(p.fields.first { $0.path == "billingPlanType" }?.spec)
        #expect(spec.introduced == "App Store Server API 1.21 / Notifications 2.21")
        #expect(spec.meaningWithVersion == "How the subscription period is billed. (introduced in App Store Server API 1.21 / Notifications 2.21)")
    }

    @Test("every revocationType and billingPlanType value is known")
    func revocationAndBillingValues() {
        for value in ["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"] {
            let d = decodeClean(#"{"transactionId":"2","revocationType":"\#(value)"}"#, as: .transaction)
            #expect(d.payload.value("revocationType") == .enumerated(raw: value, meaning: StoreKitEnumeration.revocationType.meaning(of: value)))
            #expect(StoreKitEnumeration.revocationType.meaning(of: value) != nil)
        }
        for value in ["BILLED_UPFRONT", "MONTHLY"] {
            let d = decodeClean(#"{"autoRenewStatus":1,"renewalBillingPlanType":"\#(value)"}"#, as: .renewalInfo)
            #expect(d.payload.value("renewalBillingPlanType") == .enumerated(raw: value, meaning: StoreKitEnumeration.billingPlanType.meaning(of: value)))
        }
    }

    @Test("renewal info's commitment and Advanced Commerce info")
    func renewalCommitment() {
        let d = decodeClean(#"""
            {"autoRenewStatus":1,"renewalBillingPlanType":"BILLED_UPFRONT","commitmentInfo":{"commitmentAutoRenewProductId":"pro.monthly",\#
            "commitmentAutoRenewStatus":0,"commitmentRenewalBillingPlanType":"MONTHLY","commitmentRenewalDate":1767225600000,\#
            "commitmentRenewalPrice":119880},"advancedCommerceInfo":{"consistencyToken":"c","requestReferenceId":"r",\#
            "descriptors":{"displayName":"Pro","description":"All"},"items":[],"period":"P1M","taxCode":"C003"}}
            """#, as: .renewalInfo)
        let p = d.payload
        #expect(p.value("renewalBillingPlanType") == .enumerated(raw: "BILLED_UPFRONT", meaning: "the whole period is paid at once"))
        #expect(p.value("commitmentInfo.commitmentAutoRenewProductId") == .string("pro.monthly"))
        #expect(p.value("commitmentInfo.commitmentAutoRenewStatus") == .enumerated(raw: "0", meaning: "automatic renewal is off"))
        #expect(p.value("commitmentInfo.commitmentRenewalBillingPlanType") == .enumerated(raw: "MONTHLY", meaning: "paid monthly within a 12-month commitment"))
        #expect(p.value("commitmentInfo.commitmentRenewalPrice") == .integer(119880))
        #expect(p.value("advancedCommerceInfo.consistencyToken") == .string("c"))
        #expect(p.value("advancedCommerceInfo.items") == .array(count: 0))
    }

    @Test("RESCIND_CONSENT with its appData and the app transaction nested in it")
    func rescindConsent() {
        let inner = String(decoding: token(payload: #"{"receiptType":"Sandbox","bundleId":"com.example","appTransactionId":"7","originalPlatform":"iOS"}"#), as: UTF8.self)
        let d = decodeClean(#"""
            {"notificationType":"RESCIND_CONSENT","notificationUUID":"u","version":"2.0","signedDate":1767225600000,\#
            "appData":{"appAppleId":41234,"bundleId":"com.example","environment":"Sandbox","signedAppTransactionInfo":"\#(inner)"}}
            """#, as: .notification)
        #expect(d.payload.value("notificationType")
                == .enumerated(raw: "RESCIND_CONSENT", meaning: "a parent or guardian withdrew consent for the app (see appData; Notifications before 2.21)"))
        #expect(d.payload.value("appData.appAppleId") == .integer(41234))
        #expect(d.payload.value("appData.signedAppTransactionInfo") == .nestedToken(index: 0))
        #expect(d.nested.count == 1)
        #expect(d.nested.first?.document.payload.kind == .appTransaction)
        #expect(d.nested.first?.document.codes(.payload) == [])
    }

    @Test("external purchase token: CREATED and ACTIVE_TOKEN_REMINDER subtypes, tokenType values")
    func externalPurchaseToken() {
        for (subtype, tokenType) in [("CREATED", "ACQUISITION"), ("ACTIVE_TOKEN_REMINDER", "SERVICES")] {
            let d = decodeClean(#"""
                {"notificationType":"EXTERNAL_PURCHASE_TOKEN","subtype":"\#(subtype)","externalPurchaseToken":\#
                {"externalPurchaseId":"SANDBOX_1","tokenCreationDate":1767225600000,"appAppleId":5,"bundleId":"a","tokenType":"\#(tokenType)"}}
                """#, as: .notification)
            #expect(d.payload.value("subtype") == .enumerated(raw: subtype, meaning: StoreKitEnumeration.subtype.meaning(of: subtype)))
            #expect(StoreKitEnumeration.subtype.meaning(of: subtype) != nil)
            #expect(d.payload.value("externalPurchaseToken.tokenType")
                    == .enumerated(raw: tokenType, meaning: StoreKitEnumeration.tokenType.meaning(of: tokenType)))
            #expect(StoreKitEnumeration.tokenType.meaning(of: tokenType) != nil)
        }
    }

    @Test("ONE_TIME_CHARGE, METADATA_UPDATE, MIGRATION and PRICE_CHANGE are known notification types")
    func newerNotificationTypes() {
        for type in ["ONE_TIME_CHARGE", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE"] {
            let d = decodeClean(#"{"notificationType":"\#(type)","data":{"bundleId":"a"}}"#, as: .notification)
            #expect(d.payload.value("notificationType") == .enumerated(raw: type, meaning: StoreKitEnumeration.notificationType.meaning(of: type)))
            #expect(StoreKitEnumeration.notificationType.meaning(of: type) != nil)
        }
    }

    @Test("a field and a value Apple may add later: flagged at info severity with the schema date")
    func unknownAfterSchemaDate() {
        let field = JWSDocument.decode(text: token(payload: #"{"transactionId":"2","cadenceType":"X"}"#))
        #expect(field.codes(.payload) == [JWSCode.fieldNotInSchema.code])
        #expect(field.diagnostics.first?.diagnostic.severity == .info)
        #expect(field.diagnostics.first?.diagnostic.range == 21..<34)
        #expect(field.diagnostics.first?.diagnostic.message == "cadenceType is not in this tool's schema (Apple may have added it after 2026-04-27)")
        #expect(field.payload.value("cadenceType") == .string("X"))

        let value = JWSDocument.decode(text: token(payload: #"{"transactionId":"2","billingPlanType":"WEEKLY"}"#))
        #expect(value.codes(.payload) == [JWSCode.fieldUnknownValue.code])
        #expect(value.diagnostics.first?.diagnostic.severity == .info)
        #expect(value.diagnostics.first?.diagnostic.range == 39..<47)
        #expect(value.diagnostics.first?.diagnostic.message
                == "billingPlanType = WEEKLY is not a known billingPlanType value: not in this tool's schema (Apple may have added it after 2026-04-27)")
        #expect(value.payload.value("billingPlanType") == .enumerated(raw: "WEEKLY", meaning: nil))
    }
}
