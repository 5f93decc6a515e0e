import ArgumentParser

/// `--lines`, `--jobs N`, `--summary`: many inputs in one process (`verify`, `json`).
struct BatchOptions: ParsableArguments {
    @Flag(help: "Read one input per line of each FILE ('-': standard input): a receipt in base64, a token or a JSON body.")
    var lines = false

    @Option(help: ArgumentHelp("Inputs checked at once in batch mode (default: every core).", valueName: "N"))
    var jobs: Int?

    @Flag(help: "Print the batch summary on stderr even when it is not a terminal (on a terminal it always is).")
    var summary = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more (got \(jobs))") }
    }

    /// Batch mode: several FILEs, --lines, --jobs or --summary. A single FILE without them keeps
    /// the command's full single-input output.
    func isBatch(fileCount: Int) -> Bool { fileCount > 1 || lines || jobs != nil || summary }

    /// The documented discussion paragraph shared by `verify` and `json`.
    static let discussion = """
        Batch mode (several FILEs, --lines, --jobs or --summary): one line per input, in input \
        order, each naming its source (FILE, or FILE:LINE with --lines); JSON formats print one \
        object per line (NDJSON) with "source" and, for lines, "line". --jobs N checks N inputs at \
        once (default: every core); memory stays bounded however many inputs. On a terminal, stderr \
        shows progress and, at the end, a summary (summary: lines, easy to add up across runs); \
        --summary prints the summary when stderr is not a terminal. An input that cannot be loaded \
        (an empty line, undecodable base64) is INVALID; a FILE that cannot be read gets an ERROR \
        line (a JSON "error" object), the rest still run, and the exit status is 2.
        """
}
