import Foundation
import SleepCore

/// Little-endian packing of the base series into BLOBs (compact: 10 bytes per second).
package enum BlobCodec {
    package static func data(_ values: [Float]) -> Data {
        values.map { $0.bitPattern.littleEndian }.withUnsafeBytes { Data($0) }
    }
    package static func data(_ values: [UInt16]) -> Data {
        values.map { $0.littleEndian }.withUnsafeBytes { Data($0) }
    }
    package static func data(_ values: [Double]) -> Data {
        values.withUnsafeBufferPointer { Data(buffer: $0) }
    }
    static func doubles(_ data: Data) -> [Double] {
        var out = [Double](repeating: 0, count: data.count / MemoryLayout<Double>.size)
        out.withUnsafeMutableBytes { _ = data.copyBytes(to: $0) }
        return out
    }
    /// Sleep/wake labels as bytes: 0 = none, 1 = sleep, 2 = wake.
    package static func labels(_ values: [SleepWake?]) -> Data {
        Data(values.map { $0 == nil ? 0 : ($0 == .sleep ? 1 : 2) })
    }
    static func labels(_ data: Data) -> [SleepWake?] {
        data.map { $0 == 1 ? .sleep : ($0 == 2 ? .wake : nil) }
    }
    static func floats(_ data: Data) -> [Float] {
        var result = [Float](repeating: 0, count: data.count / 4)
        data.withUnsafeBytes { raw in
            for i in result.indices { result[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))) }
        }
        return result
    }
    /// ActiGraph counts: int32 x, y, z interleaved per epoch.
    package static func data(_ c: WearableEpochs.Counts) -> Data {
        var out = [Int32](); out.reserveCapacity(3 * c.count)
        for i in 0..<c.count { out.append(c.x[i].littleEndian); out.append(c.y[i].littleEndian); out.append(c.z[i].littleEndian) }
        return out.withUnsafeBytes { Data($0) }
    }
    static func counts(_ data: Data) -> WearableEpochs.Counts {
        let n = data.count / 12
        var x = [Int32](repeating: 0, count: n), y = x, z = x
        data.withUnsafeBytes { raw in
            for i in 0..<n {
                x[i] = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 12, as: Int32.self))
                y[i] = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 12 + 4, as: Int32.self))
                z[i] = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 12 + 8, as: Int32.self))
            }
        }
        return WearableEpochs.Counts(x: x, y: y, z: z)
    }
    static func uint16s(_ data: Data) -> [UInt16] {
        var result = [UInt16](repeating: 0, count: data.count / 2)
        data.withUnsafeBytes { raw in
            for i in result.indices { result[i] = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)) }
        }
        return result
    }
}
