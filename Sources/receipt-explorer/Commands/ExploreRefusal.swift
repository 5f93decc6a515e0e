import ArgumentParser
import TextOutput
import Platform
import TerminalAdapter

extension CommandSupport {
    /// A command's `--explore` draws on the terminal: refuse, before loading, where it cannot (one
    /// sentence, exit 2). `inputs` names what cannot come from standard input ("A or B", "an
    /// input"); `printed` what the command prints without `--explore` ("the diff").
    static func refuseExploreUnlessInteractive(withJSONFormat: Bool, readsStandardInput: Bool, inputs: String,
                                               printed: String) throws {
        var reason: String?
        if withJSONFormat {
            reason = "--explore opens the explorer and prints nothing, so it cannot be combined with --format json; drop one of them"
        } else if readsStandardInput {
            reason = "--explore reads keys from standard input, so it cannot read \(inputs) from it; save the input to a file"
        } else if isatty(1) == 0 || isatty(0) == 0 {
            reason = "--explore needs a terminal on stdin and stdout; drop --explore to print \(printed) as text (or add --format json)"
        }
        if let reason {
            complain(reason)
            throw ExitCode(ExitStatus.usageOrIO)
        }
        if let refusal = TerminalPreflight.check() {
            OutputWriter.write(ExploreCommand.message(refusal) + "\n", to: .standardError)
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }
}
