import CEtPan
import TriageCore

/// Turns raw RFC 5322 / MIME bytes into a `Message`, using libetpan's parsers.
///
/// Never crashes or hangs on malformed input; yields whatever can be read.
public enum MessageParser {
    /// Parses one message.
    public static func parse(_ bytes: [UInt8]) -> Message {
        var message = Message()
        message.size = bytes.count
        return message
    }
}
