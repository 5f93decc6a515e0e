/// The tour's and the tamper lab's rows of the one keymap table.
extension Keymap {
    static let teachingBindings: [KeyBinding] = [
        b("t", "start the guided tour, or resume it where you left it", .global, .tourStart, c("t")),
        b("n / →", "next tour step", .tour, .tourNext, c("n"), .right),
        b("p / ←", "previous tour step", .tour, .tourPrevious, c("p"), .left),
        b("↑ / k", "scroll the lesson up", .tour, .scrollUp, .up, c("k")),
        b("↓ / j", "scroll the lesson down (to a question below the pane)", .tour, .scrollDown, .down, c("j")),
        b("q / Esc", "leave the tour at this node (browse freely; t resumes)", .tour, .tourLeave, c("q"), .escape),
        b("a / b / c", "answer the step's self-check (when its question is on screen)", .tour, .tourAnswer, c("a"), c("b"), c("c")),
        b("e", "tamper lab: replace the byte under the cursor (type two hex digits; in a text pane, JSON or token characters, type the character itself); every check runs again", .hex, .labEdit, c("e")),
        b("i", "tamper lab: insert a byte before the cursor (two hex digits, or the character in a text pane; the file's own bytes only)", .hex, .labInsert, c("i")),
        b("D", "tamper lab: delete the byte under the cursor (d stays the diff, as everywhere)", .hex, .labDelete, c("D")),
        b("u", "tamper lab: undo the last edit (q then asks before dropping unsaved edits)", .hex, .labUndo, c("u")),
        b("w", "tamper lab: write the edited bytes to a new file (never over the input)", .hex, .labWrite, c("w")),
    ]
}
