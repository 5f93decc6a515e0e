/// StoreKit 2 JWS documents (being written: see the StoreKit 2 issue).
public enum JWSKit {}
