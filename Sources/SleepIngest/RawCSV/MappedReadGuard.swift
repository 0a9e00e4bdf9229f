#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes reading a memory-mapped file survive the file shrinking under it.
///
/// A page of a mapping that lies past the file's end once another process truncates the file
/// raises SIGBUS when touched, which kills the process (exit 135) in the middle of a batch. A
/// mapping registered here is instead patched where it faults: the handler maps zero pages over
/// the rest of the mapping (so the faulting load is retried and reads zeros) and marks the
/// mapping, and its owner then refuses what it read as "changed while it was read". Faults outside
/// registered mappings go to the handler that was installed before (by default: the process dies,
/// as it would have).
///
/// Swift cannot use `sigsetjmp`/`siglongjmp` (a function returning twice), so the handler repairs
/// the mapping rather than jumping out of the parser; the parsers only ever see bytes, zeros
/// included, and their result is thrown away.
enum MappedReadGuard {
    static let slotCount = 256
    /// Per slot: start address, length in bytes, and whether it faulted (0/1). Written under
    /// `mutex` by register/unregister, read by the handler (which never takes a lock).
    private nonisolated(unsafe) static let starts = UnsafeMutablePointer<UInt>.allocate(capacity: slotCount)
    private nonisolated(unsafe) static let lengths = UnsafeMutablePointer<UInt>.allocate(capacity: slotCount)
    private nonisolated(unsafe) static let faulted = UnsafeMutablePointer<Int>.allocate(capacity: slotCount)
    private nonisolated(unsafe) static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
    private nonisolated(unsafe) static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()
    private nonisolated(unsafe) static var installed = false

    /// Registers `length` bytes mapped at `start`; nil when every slot is taken (then the mapping
    /// is read unguarded, as before: 256 files mapped at once do not happen in one batch).
    static func register(start: UnsafeRawPointer, length: Int) -> Int? {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        if !installed {
            starts.initialize(repeating: 0, count: slotCount)
            lengths.initialize(repeating: 0, count: slotCount)
            faulted.initialize(repeating: 0, count: slotCount)
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = handleBusError
            action.sa_flags = SA_SIGINFO | SA_NODEFER
            sigemptyset(&action.sa_mask)
            guard sigaction(SIGBUS, &action, previous) == 0 else { return nil }
            installed = true
        }
        for slot in 0..<slotCount where starts[slot] == 0 {
            faulted[slot] = 0
            lengths[slot] = UInt(length)
            starts[slot] = UInt(bitPattern: start)
            return slot
        }
        return nil
    }

    /// Forgets the mapping in `slot`; returns whether a read of it faulted (the file shrank).
    @discardableResult
    static func unregister(_ slot: Int) -> Bool {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        starts[slot] = 0
        lengths[slot] = 0
        return faulted[slot] != 0
    }

    /// Whether a read of the mapping in `slot` faulted so far.
    static func hasFaulted(_ slot: Int) -> Bool { faulted[slot] != 0 }

    private static let handleBusError: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { signal, info, context in
        let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        for slot in 0..<MappedReadGuard.slotCount {
            let start = MappedReadGuard.starts[slot], length = MappedReadGuard.lengths[slot]
            guard start != 0, address >= start, address < start + length else { continue }
            // Zero pages from the faulting page to the mapping's end: every later page is past
            // the new end of the file too. The mapping's owner unmaps the whole range as usual.
            let from = address / page * page
            let patched = mmap(UnsafeMutableRawPointer(bitPattern: from), Int(start + length - from), PROT_READ,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
            if patched == MAP_FAILED { break }
            MappedReadGuard.faulted[slot] = 1
            return
        }
        // Not a guarded mapping: restore whoever handled SIGBUS before and let the load fault again.
        sigaction(SIGBUS, MappedReadGuard.previous, nil)
    }
}
