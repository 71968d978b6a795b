import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Testing

@testable import ChipmunkLive

@Suite struct LiveSessionTests {
    @Test func placeholder() {}
}
