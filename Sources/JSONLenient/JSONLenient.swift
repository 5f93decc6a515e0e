/// The offset-recording JSON reader (being written: see the StoreKit 2 issue).
public enum JSONLenient {}
