import ArgumentParser
import DocumentCore
import ReceiptKit

/// How a command that shows verdicts opens its inputs: the validation inputs (`--root`,
/// `--device-id`, `--bundle-id`, `--app-version`, `--at`) and `--no-validate`. The one place that
/// turns them into `Document.open`'s options, so that `explore`, `json` and `diff --explore` open a
/// file the same way.
struct OpenOptions: ParsableArguments {
    @OptionGroup var check: ReceiptCheckOptions

    @Flag(name: .customLong("no-validate"), help: "Skip the OpenSSL steps (signature, chain, time, receipt signer): decode only.")
    var noValidate = false

    /// The options given, for `OptionTable`'s refusals.
    var given: Set<ReadingOption> { check.given.union(noValidate ? [.noValidate] : []) }

    /// The options, or a one-line complaint and exit status 2 (an unreadable --root, a bad --at).
    func analysisOptions() throws -> AnalysisOptions {
        try check.analysisOptions(validate: !noValidate)
    }
}
