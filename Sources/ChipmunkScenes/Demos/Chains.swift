import Chipmunk

extension Demos {
    /// The force at which a link of ``chains()`` breaks.
    public static let chainBreakingForce = 80_000.0

    /// The mass hung from the third chain of ``chains()``.
    public static let chainWeight = 1_000.0

    /// Chains.c: 8 chains of 10 links hang from the ceiling; a ball is thrown up into
    /// them. Each link's slide joint breaks when its force passes 90 % of 80,000: its
    /// postSolve closure schedules the removal in a post-step callback. In the C demo you
    /// break links by dragging chains with the mouse; headless, a weight of mass 1,000
    /// (100,000 under gravity 100) hangs from the third chain, which breaks.
    public static func chains() -> Scene {
        let space = Space()
        space.iterations = 30
        space.gravity = [0, -100]
        space.sleepTimeThreshold = 0.5
        DemoSupport.box(space, top: true)
        let mass = 1.0
        let width = 20.0
        let height = 30.0
        let spacing = width * 0.3
        let chainCount = 8
        let linkCount = 10
        var bottoms: [Body] = []
        for i in 0..<chainCount {
            var previous: Body?
            for j in 0..<linkCount {
                let pos = Vector(
                    x: 40 * (Double(i) - Double(chainCount - 1) / 2),
                    y: 240 - (Double(j) + 0.5) * height - Double(j + 1) * spacing)
                let body = DemoSupport.boxBody(space, mass: mass, width: width, height: height, at: pos)
                DemoSupport.capsule(space, on: body, width: width, height: height, friction: cFloat(0.8))
                let link: SlideJoint
                if let previous {
                    link = SlideJoint(
                        a: body, b: previous, anchorA: [0, height / 2], anchorB: [0, -height / 2], distance: 0...spacing
                    )
                } else {
                    link = SlideJoint(
                        a: body, b: space.staticBody, anchorA: [0, height / 2], anchorB: [pos.x, 240],
                        distance: 0...spacing)
                }
                link.maxForce = chainBreakingForce
                link.collideBodies = false
                link.postSolve = { joint in
                    guard let space = joint.space else { return }
                    let force = joint.impulse / space.currentTimeStep
                    if force > 0.9 * joint.maxForce {
                        space.addPostStepCallback(forKey: .object(joint)) { space in
                            if space.contains(joint) { space.remove(joint) }
                        }
                    }
                }
                space.add(link)
                previous = body
            }
            if let previous { bottoms.append(previous) }
        }
        let weight = Body(mass: chainWeight, moment: Moment.circle(mass: chainWeight, outerRadius: 10))
        space.add(weight)
        weight.position = bottoms[2].position + [0, -height / 2 - 12]
        space.add(Circle(body: weight, radius: 10, friction: 0.9))  // not in Chains.c: the headless input
        space.add(PivotJoint(a: bottoms[2], b: weight, anchorA: [0, -height / 2], anchorB: [0, 10]))
        let radius = 15.0
        let ball = Body(mass: 10, moment: Moment.circle(mass: 10, outerRadius: radius))
        space.add(ball)
        ball.position = [0, -240 + radius + 5]
        ball.velocity = [0, 300]
        space.add(Circle(body: ball, radius: radius, friction: cFloat(0.9), elasticity: 0))
        return Scene(name: "chains", space: space, timeStep: 1.0 / 180)
    }
}
