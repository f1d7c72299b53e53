import AppContract
import Logging
import Testing

/// The fields of a journal entry (issue 62): what `journalctl -o json` shows of a message logged
/// under systemd. (The image test, Board/image.sh test, checks that entries arrive so.)
@Suite struct JournalTests {
    @Test func aMessageBecomesItsLineItsPriorityAndAFieldPerMetadataKey() {
        let fields = Journal.fields(
            level: .warning, message: "audit: POST /display 200", metadata: ["client": "fleet", "view-id": "buy"],
            file: "RemoteControl/AccessMiddleware.swift", function: "record(_:by:from:)", line: 120)
        #expect(
            fields == [
                "MESSAGE=\(processName): audit: POST /display 200", "PRIORITY=4", "SYSLOG_IDENTIFIER=\(processName)",
                "CODE_FILE=RemoteControl/AccessMiddleware.swift", "CODE_LINE=120", "CODE_FUNC=record(_:by:from:)",
                "GLIDE_CLIENT=fleet", "GLIDE_VIEW_ID=buy",
            ])
    }
}
