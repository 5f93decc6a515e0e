/// Why a call ended without the body it asked for, worded for the user. Never carries the token
/// or the key: the request is named by its method and path only.
public struct APIFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Apple answered with `{errorCode, errorMessage}` (exit 1).
        case apple(code: Int64)
        /// 401: the token was refused (exit 1).
        case unauthorized
        /// The network, TLS, a time-out, a body too large, a redirect, an answer that is not Apple's (exit 2).
        case transport
        /// The key could not sign (exit 2).
        case signing
    }

    public var kind: Kind
    public var description: String

    /// 1 for an answer from Apple that refuses the call, 2 for everything that kept an answer from coming.
    public var exitStatus: Int32 {
        switch kind {
        case .apple, .unauthorized: 1
        case .transport, .signing: 2
        }
    }
}
