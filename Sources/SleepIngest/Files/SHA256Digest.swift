import CSSL
import Foundation

/// SHA-256 (FIPS 180-4) through Debian's libcrypto (OpenSSL's EVP digest interface), fed in
/// pieces: the legacy content hash of recordings stored before BLAKE3 (``FileHashing``), a shard
/// folder's digest and `sleepsta digest`. libcrypto is a system library the machine already has;
/// a Swift package of its own (swift-crypto) compiled about 300 C files of BoringSSL into every
/// fresh build for these three uses.
public final class SHA256Digest {
    private let context: OpaquePointer

    public init() {
        // EVP_MD_CTX_new fails only when memory is exhausted, where nothing else could go on.
        guard let c = EVP_MD_CTX_new(), EVP_DigestInit_ex(c, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto: cannot start a SHA-256 digest (out of memory)")
        }
        context = c
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = EVP_DigestUpdate(context, base, bytes.count)
    }

    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }
    public func update(_ text: String) { update(Array(text.utf8)) }

    /// The 32-byte digest; the digest is finished (feed no more).
    public func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &out, &length)
        return Array(out.prefix(Int(length)))
    }

    /// The digest in lowercase hex.
    public func hexDigest() -> String { finalize().map { String(format: "%02x", $0) }.joined() }

    /// SHA-256 of `bytes`, in lowercase hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        let d = SHA256Digest()
        d.update(bytes)
        return d.hexDigest()
    }
}
