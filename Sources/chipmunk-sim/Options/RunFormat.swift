import ArgumentParser
import Chipmunk
import ChipmunkPictures
import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import SystemPackage

/// What `run` writes.
enum RunFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, jsonl, html
}
