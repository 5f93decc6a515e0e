/// The system's own clipboard command, for terminals that do not take OSC 52.
public enum Pasteboard {
    /// pbcopy(1) on macOS (it reads the text from standard input and puts it on the general
    /// pasteboard); nil on Linux, where no one command reaches every desktop's clipboard.
    public static let copyCommand: String? = HostSystem.current == .macOS ? "/usr/bin/pbcopy" : nil

    /// Runs `copyCommand` with `text` on its standard input; nil on success, else a short reason.
    public static func copy(_ text: String, command: String, environment: [String: String]) -> String? {
        switch Spawn.run(command, [], environment: environment, input: .bytes(Array(text.utf8))) {
        case let .success(status): return status == 0 ? nil : "\(command) exited with status \(status)"
        case let .failure(failure): return failure.description
        }
    }
}
