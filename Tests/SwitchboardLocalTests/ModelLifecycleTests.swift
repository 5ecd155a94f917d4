import SwitchboardCore
import Testing
@testable import SwitchboardLocal

@Suite("Model lifecycle")
struct ModelLifecycleTests {
    @Test("a request on a cold model starts a load and waits; the load resumes it")
    func coldStart() {
        var lifecycle = ModelLifecycle(idleTimeout: .seconds(60))
        #expect(lifecycle.handle(.requestStarted, at: .zero) == [.startLoad, .wait])
        #expect(lifecycle.handle(.requestStarted, at: .seconds(1)) == [.wait])
        _ = lifecycle.handle(.progress(0.5), at: .seconds(1))
        #expect(lifecycle.state == .loading(progress: 0.5))
        #expect(lifecycle.handle(.loaded, at: .seconds(2)) == [.resumeWaiters])
        #expect(lifecycle.state == .ready)
        #expect(lifecycle.activeRequests == 2 && lifecycle.waitingRequests == 0)
        #expect(lifecycle.handle(.requestStarted, at: .seconds(3)) == [.proceed])
    }

    @Test("a failed load fails its waiters; the next request retries the load")
    func failedLoad() {
        var lifecycle = ModelLifecycle()
        _ = lifecycle.handle(.requestStarted, at: .zero)
        #expect(lifecycle.handle(.loadFailed(reason: "bad file"), at: .seconds(1)) == [.failWaiters(reason: "bad file")])
        #expect(lifecycle.state == .failed(reason: "bad file"))
        #expect(lifecycle.isIdle)
        #expect(lifecycle.handle(.requestStarted, at: .seconds(2)) == [.startLoad, .wait])
    }

    @Test("idle timeout unloads only after the configured quiet time")
    func idleUnload() {
        var lifecycle = ModelLifecycle(idleTimeout: .seconds(10))
        _ = lifecycle.handle(.loadRequested, at: .zero)
        #expect(lifecycle.handle(.loaded, at: .zero) == [.scheduleIdleCheck(after: .seconds(10))])
        _ = lifecycle.handle(.requestStarted, at: .seconds(4))
        #expect(lifecycle.handle(.requestFinished, at: .seconds(6)) == [.scheduleIdleCheck(after: .seconds(10))])
        // The first timer (armed at load) fires at 10 s: only 4 s of quiet so far, so it re-arms for the rest.
        #expect(lifecycle.handle(.idleTimeout, at: .seconds(10)) == [.scheduleIdleCheck(after: .seconds(6))])
        #expect(lifecycle.handle(.idleTimeout, at: .seconds(16)) == [.unload])
        #expect(lifecycle.state == .unloading)
        #expect(lifecycle.handle(.unloaded, at: .seconds(16)) == [])
        #expect(lifecycle.state == .notLoaded)
    }

    @Test("the idle timer never unloads under a running request")
    func idleWhileBusy() {
        var lifecycle = ModelLifecycle(idleTimeout: .seconds(1))
        _ = lifecycle.handle(.loadRequested, at: .zero)
        _ = lifecycle.handle(.loaded, at: .zero)
        _ = lifecycle.handle(.requestStarted, at: .zero)
        #expect(lifecycle.handle(.idleTimeout, at: .seconds(5)) == [])
        #expect(lifecycle.state == .ready)
    }

    @Test("memory pressure unloads an idle model at once and a busy one when it finishes")
    func pressure() {
        var lifecycle = ModelLifecycle(idleTimeout: nil, unloadPressure: .critical)
        _ = lifecycle.handle(.loadRequested, at: .zero)
        _ = lifecycle.handle(.loaded, at: .zero)
        #expect(lifecycle.handle(.memoryPressure(.warning), at: .zero) == [])
        _ = lifecycle.handle(.requestStarted, at: .zero)
        #expect(lifecycle.handle(.memoryPressure(.critical), at: .zero) == [])
        #expect(lifecycle.handle(.requestFinished, at: .seconds(1)) == [.unload])
        #expect(lifecycle.handle(.unloaded, at: .seconds(1)) == [])
        // Still critical: a new request is refused rather than loading into a starved device.
        guard case .reject = lifecycle.handle(.requestStarted, at: .seconds(2)).first else {
            Issue.record("expected a rejection under critical pressure"); return
        }
        _ = lifecycle.handle(.memoryPressure(.normal), at: .seconds(3))
        #expect(lifecycle.handle(.requestStarted, at: .seconds(3)) == [.startLoad, .wait])
    }

    @Test("a request during an unload waits and triggers a reload")
    func reloadOnDemand() {
        var lifecycle = ModelLifecycle()
        _ = lifecycle.handle(.loadRequested, at: .zero)
        _ = lifecycle.handle(.loaded, at: .zero)
        #expect(lifecycle.handle(.unloadRequested, at: .zero) == [.unload])
        #expect(lifecycle.handle(.requestStarted, at: .zero) == [.wait])
        #expect(lifecycle.handle(.unloaded, at: .zero) == [.startLoad])
        #expect(lifecycle.handle(.loaded, at: .seconds(1)) == [.resumeWaiters])
        #expect(lifecycle.activeRequests == 1)
    }

    @Test("an unload asked during a load happens after the waiters are served")
    func unloadDuringLoad() {
        var lifecycle = ModelLifecycle(idleTimeout: nil)
        _ = lifecycle.handle(.requestStarted, at: .zero)
        #expect(lifecycle.handle(.unloadRequested, at: .zero) == [])
        #expect(lifecycle.handle(.loaded, at: .zero) == [.resumeWaiters])
        #expect(lifecycle.handle(.requestFinished, at: .seconds(1)) == [.unload])
    }

    @Test("an unload with nobody waiting on a load unloads right after it")
    func unloadDuringPreload() {
        var lifecycle = ModelLifecycle()
        _ = lifecycle.handle(.loadRequested, at: .zero)
        _ = lifecycle.handle(.unloadRequested, at: .zero)
        #expect(lifecycle.handle(.loaded, at: .zero) == [.unload])
    }

    @Test("stray events do not corrupt the counters")
    func strayEvents() {
        var lifecycle = ModelLifecycle()
        #expect(lifecycle.handle(.requestFinished, at: .zero) == [])
        #expect(lifecycle.handle(.loaded, at: .zero) == [])
        #expect(lifecycle.handle(.unloaded, at: .zero) == [])
        #expect(lifecycle.handle(.progress(2), at: .zero) == [])
        #expect(lifecycle.state == .notLoaded && lifecycle.isIdle)
        _ = lifecycle.handle(.loadRequested, at: .zero)
        _ = lifecycle.handle(.progress(2), at: .zero)
        #expect(lifecycle.state == .loading(progress: 1))
        #expect(lifecycle.handle(.loadRequested, at: .zero) == [])
    }
}
