import Foundation
import TriageCore
import TriageIMAP
import TriageTestSupport

/// A Dovecot account, reached over IMAPS.
struct DovecotBackend: ContractBackend {
    let name = "IMAP"
    let server: DovecotServer
    let user: String

    init() throws {
        server = try DovecotServer.shared()
        user = try server.makeUser("contract")
        try server.createMailbox(user: user, "Archive")
    }

    func connect() throws -> MailConnection { try server.connect(user: user) }

    func seed(_ message: String, mailbox: String, flags: String, date: Date) throws {
        try server.seed(user: user, mailbox: mailbox, message, flags: flags, date: date)
    }
}
