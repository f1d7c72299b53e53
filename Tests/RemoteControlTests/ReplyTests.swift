import Testing
@testable import RemoteControl

/// The replies' JSON as clients read it: same keys, sorted, the same every time; times to the
/// microsecond; the app's state passed through untouched.
@Suite struct ReplyTests {
    func body(_ r: some Encodable) -> String { RemoteServer.encoded(r) }

    @Test func errorsNameTheLineOnlyWhenThereIsOne() {
        #expect(body(RemoteControl.ErrorReply(error: "t beyond 120000 ms", line: 3)) == #"{"error":"t beyond 120000 ms","line":3}"#)
        #expect(body(RemoteControl.ErrorReply(error: "a/b \"q\"\n\t\\", line: nil)) == #"{"error":"a/b \"q\"\n\t\\"}"#)
    }

    @Test func eventsRepliesKeepTheirKeysAndRoundTimes() {
        let r = RemoteEventsReply(count: 2, arrival: 10.1234564, firstApplied: 10.5, lastApplied: .infinity, frameNumber: 7)
        #expect(body(r) == #"{"arrival":10.123456,"events":2,"firstApplied":10.5,"frameNumber":7,"lastApplied":null}"#)
    }

    @Test func displayAndHello() {
        #expect(body(RemoteDisplayReply(on: false)) == #"{"on":false}"#)
        #expect(body(LiveHello(readOnly: true, encoding: "png")) == #"{"encoding":"png","readOnly":true,"type":"hello"}"#)
    }

    @Test func waitRepliesCarryTheStateAsTheAppWroteIt() {
        let state = #"{"t":1.0,"scrollViews":[],"b":{"z":1,"a":2}}"#
        let r = RemoteServer.waitReply(RemoteWaitReply(atRest: false, waited: 0.25, stateJSON: state))
        #expect(r.status == .requestTimeout)
        #expect(
            RemoteServer.waitBody(RemoteWaitReply(atRest: true, waited: 0.0125, stateJSON: state))
                == #"{"atRest":true,"waitedMs":12.5,"state":"# + state + "}")
    }
}
