import ArgumentParser

extension ReceiptExplorer {
    /// A command line that starts with a subcommand's name is parsed by that subcommand alone
    /// first. The root's parse, before it reaches the subcommand, builds that subcommand's and the
    /// default subcommand's whole argument sets to ask whether either takes pass-through arguments,
    /// and walks the whole tree twice more (completion scripts, built-in flags): 4–6 M of a
    /// one-shot command's instructions (docs/performance.md, "Start-up"). Only a parse that succeeds
    /// and yields one of our own commands is kept; anything else (a help request, `--version`, a
    /// usage error, ArgumentParser's `help`, which it offers only to the command it parses as root)
    /// is answered by the root's parse, so every message, usage line and exit status stays the root's.
    /// Each subcommand names the root as its `_superCommandName`, which tells ArgumentParser that a
    /// parse starting at it is not the tool's root: it then skips its completion-script check (a
    /// request for a script is refused by the subcommand and so goes to the root's parse, which
    /// answers it). ArgumentParser reads that name only for the first command of a parse or a help
    /// page, which a subcommand is only here. A line the subcommand refuses is validated again by the
    /// root's parse, so `validate()` must stay free of side effects (every one is today).
    static func parseCommand(_ arguments: [String]) throws -> ParsableCommand {
        try subcommandReading(arguments) ?? parseAsRoot(arguments)
    }

    /// The command the subcommand named first reads from the line alone, or nil when it names none,
    /// refuses the line or yields anything but one of our commands.
    static func subcommandReading(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first,
              let subcommand = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
              let command = try? subcommand.parseAsRoot(Array(arguments.dropFirst())),
              commandTypes.contains(ObjectIdentifier(type(of: command))) else { return nil }
        return command
    }

    /// Every command type below the root, at any depth.
    static var commandTypes: Set<ObjectIdentifier> {
        var types = Set<ObjectIdentifier>()
        var pending = configuration.subcommands
        while let command = pending.popLast() {
            if types.insert(ObjectIdentifier(command)).inserted { pending += command.configuration.subcommands }
        }
        return types
    }
}
