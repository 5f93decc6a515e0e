/// Locale names that exist on each system.
public enum Locales {
    /// A UTF-8 locale to run a child in (tmux's capture-pane writes UTF-8 only for a UTF-8 client
    /// locale). glibc always has `C.UTF-8`; macOS has it only from macOS 15, and `en_US.UTF-8` on
    /// every version, so that one is chosen there.
    public static let utf8: String = HostSystem.current == .macOS ? "en_US.UTF-8" : "C.UTF-8"
}
