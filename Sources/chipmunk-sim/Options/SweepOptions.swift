import ArgumentParser
import ChipmunkBatch
import Foundation

// The sweep's structured options, parsed once by ArgumentParser at the boundary: a
// malformed value is a usage error (exit 64) that quotes it, before any file is read.

extension SweepAxis {
    /// `--param name=1,2,5 | name=lin:FROM:TO:COUNT | name=log:FROM:TO:COUNT`.
    static func argument(_ text: String) throws -> SweepAxis {
        do { return try SweepAxis(parsing: text) } catch { throw ValidationError(error.description) }
    }
}

extension TrackedQuantity {
    /// `--track energy | BODY.q`.
    static func argument(_ text: String) throws -> TrackedQuantity {
        do { return try TrackedQuantity(parsing: text) } catch { throw ValidationError(error.description) }
    }
}

/// `--shard I/N`, or the scheduler's pair of variables: run only shard `index` of `count`.
struct Shard: Equatable, CustomStringConvertible {
    /// The most shards a sweep may have.
    static let maxCount = 100_000

    let index: Int
    let count: Int

    /// The whole sweep: shard 0 of 1.
    static let whole = Shard(index: 0, count: 1)

    var description: String { "\(index)/\(count)" }

    /// `I/N` with 0 <= I < N <= 100000; `origin` names where the text came from.
    static func parse(_ text: String, origin: String = "--shard") throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, count <= maxCount,
            (0..<count).contains(index)
        else {
            throw ValidationError("\(origin) must be I/N with 0 <= I < N <= \(maxCount) (got \(text))")
        }
        return Shard(index: index, count: count)
    }

    /// The shard a Slurm job array's task or a Kubernetes Indexed Job's pod runs, from
    /// their variables; nil when neither scheduler set any. A shard needs both of a pair:
    /// an index alone would run every run in every task, so it is an error that names the
    /// missing variable.
    static func fromScheduler(_ environment: [String: String]) throws -> Shard? {
        let pairs = [
            (
                "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT",
                "a Slurm job array sets both; run inside one, or give --shard I/N"
            ),
            (
                "JOB_COMPLETION_INDEX", "JOB_COMPLETIONS",
                "set JOB_COMPLETIONS in the Job to its spec.completions, as deploy/k8s/sweep-job.yaml does, or give --shard I/N"
            ),
        ]
        for (indexName, countName, advice) in pairs {
            switch (environment[indexName], environment[countName]) {
            case (nil, nil): continue
            case let (index?, count?): return try parse("\(index)/\(count)", origin: "\(indexName)/\(countName)")
            case (let index?, nil):
                throw ValidationError(
                    "\(indexName) is \(index) but \(countName) is not set: a shard needs both (\(advice))")
            case (nil, let count?):
                throw ValidationError(
                    "\(countName) is \(count) but \(indexName) is not set: a shard needs both (\(advice))")
            }
        }
        return nil
    }
}

/// `results --chart PARAM:METRIC`: a metric charted against a parameter.
struct ChartRequest: Equatable {
    let parameter: String
    let metric: String

    static func parse(_ text: String) throws -> ChartRequest {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ValidationError("--chart must be PARAM:METRIC, such as stiffness:energy.max (got \(text))")
        }
        return ChartRequest(parameter: parts[0], metric: parts[1])
    }
}
