// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tensor.h"

#include "core/executor.h"
#include "core/mapped_file.h"
#include "core/memory_budget.h"
#include "core/numpy_strings.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <limits>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace ss {

namespace {

// Buffers from the kernel are expensive: every fresh page faults and is zeroed on its first
// write, which costs about half a memcpy of the same bytes (more in a virtual machine whose host
// takes freed memory back: there a fresh page also faults on the host). glibc maps buffers over
// its mmap threshold (128 KiB to 32 MiB, moving) afresh and unmaps them when freed, so even a
// 1 MiB result pays 256 page faults every time (0.4-0.75 ms for x[7] of a 64^4 float32 tensor).
// The GUI re-runs the same op on every edit and scripts repeat requests, so the last few buffers
// freed are kept and handed out again.
//
// Small buffers (64 KiB to 8 MiB) come from malloc and are reused for the same size. Large ones
// are mapped on their own, outside malloc's heap: kept there, a buffer's hole was split by
// other blocks (an aligned buffer placed inside a freed one, a vector of a new size) until the
// next evaluation's buffers no longer fitted and the heap grew by fresh pages (the workbench's
// "idle" edit at 10^7 faulted in 60 MB that way). A large request takes the smallest kept buffer
// that holds it if that is at most twice its size, else grows the largest smaller one in place
// (mremap moves its pages, so only the growth is fresh), else maps a new one.
//
// Fresh large buffers ask for transparent huge pages (MADV_HUGEPAGE, 2 MiB-aligned). What a
// fresh page costs depends on the virtual machine. On an earlier development VM (free pages
// reported to the host) a fresh 2 MiB page cost 6x the 512 small pages it replaces (400 MB:
// 800-970 ms against 133-183 ms), so this pool asked for none. The current one runs a
// paravirtualised MMU (page faults trap to the hypervisor): there every 4 KiB fault costs about
// 20 us, and touching 256 MiB of fresh memory took 1.1-1.5 s of CPU with small pages against
// 0.24-0.7 s with huge pages (20 ms when the huge pages were freed a moment before); the CLI's
// first request reversing a 256 MiB array (a fresh output) took 0.68-1.0 s of CPU instead of
// 1.36-1.52 s, and its later requests, on the reused buffer, the same. The advice is only
// advice: with THP off ("never") the kernel gives small pages, and with "always" it changes
// nothing.
class BufferPool
{
public:
    /// A buffer and the bytes it really has (at least what was asked).
    struct Block
    {
        void* data = nullptr;
        std::size_t capacity = 0;
    };

    static BufferPool& instance()
    {
        // Never destroyed: a tensor freed by another static's destructor may still return its
        // buffer here, and the kept buffers stay reachable (not leaks) until the process ends.
        static BufferPool* pool = new BufferPool;
        return *pool;
    }

    Block acquire(std::size_t bytes)
    {
        if (bytes >= kMinLarge) return acquireLarge(bytes);
        if (bytes >= kMinSmall) {
            std::lock_guard lock(m_mutex);
            if (void* p = m_small.take(bytes)) return {p, bytes};
        }
        return {std::aligned_alloc(64, bytes), bytes};
    }

    void release(const Block& block)
    {
        if (block.capacity >= kMinLarge) {
            releaseLarge(block);
            return;
        }
        if (block.capacity >= kMinSmall) {
            std::lock_guard lock(m_mutex);
            m_small.put(block.data, block.capacity);
            return;
        }
        std::free(block.data);
    }

    /// Frees every kept buffer; returns their bytes.
    std::int64_t releaseAll()
    {
        std::vector<Block> large;
        std::size_t small = 0;
        {
            std::lock_guard lock(m_mutex);
            small = m_small.clear();
            large.swap(m_large);
            m_largeBytes = 0;
        }
        std::size_t bytes = small;
        for (const Block& b : large) {
            bytes += b.capacity;
            unmap(b);
        }
        return std::int64_t(bytes);
    }

    /// Unless a kept buffer already holds a request of `bytes`, makes one (or grows the kept
    /// one it would take) and writes a byte of every page, so that its pages are in memory when
    /// the request comes; it stops early when `stop` says so or a request waits for the buffer
    /// (acquireLarge). Returns whether it made one.
    bool prepareLarge(std::size_t bytes, const std::function<bool()>& stop)
    {
        bytes = roundedSize(bytes);
        if (bytes < kMinLarge) return false;
        Block kept;
        {
            std::lock_guard lock(m_mutex);
            // One at a time: a buffer being prepared is not in the pool yet.
            if (m_largeSlots == 0 || m_preparingBytes > 0) return false;
            const auto chosen = chooseLarge(bytes);
            if (chosen != m_large.end() && chosen->capacity >= bytes) return false;
            m_preparingBytes = bytes;
            m_handOver.store(false, std::memory_order_relaxed);
            kept = takeLarge(chosen);
        }
        const Block block = sizedFor(kept, bytes);
        if (block.data) {
            auto* const page = static_cast<volatile unsigned char*>(block.data);
            for (std::size_t at = 0; at < block.capacity; at += kPage) {
                if (m_handOver.load(std::memory_order_relaxed) || (stop && stop())) break;
                page[at] = 0; // the buffer is free: its contents are nobody's
            }
            releaseLarge(block);
        }
        {
            std::lock_guard lock(m_mutex);
            m_preparingBytes = 0;
        }
        m_prepared.notify_all();
        return block.data != nullptr;
    }

    void setLargeLimits(std::size_t slots, std::size_t bytes)
    {
        std::vector<Block> evicted;
        {
            std::lock_guard lock(m_mutex);
            m_largeSlots = slots;
            m_largeMaxBytes = bytes;
            evictLargeFor(0, evicted);
        }
        for (const Block& b : evicted)
            unmap(b);
    }

    /// Rounds a request so that tensors of nearly the same size share pooled buffers, and to a
    /// multiple of the alignment aligned_alloc requires.
    static std::size_t roundedSize(std::size_t bytes)
    {
        const std::size_t unit = bytes >= kMinSmall ? kPage : 64;
        return (bytes + unit - 1) / unit * unit;
    }

private:
    static constexpr std::size_t kPage = 4096;
    // Below this glibc keeps freed chunks in its heap, where their pages stay mapped.
    static constexpr std::size_t kMinSmall = std::size_t(64) << 10;
    static constexpr std::size_t kMinLarge = std::size_t(8) << 20;

    // The kept buffer a request of `bytes` takes (m_large.end(): none); call under the lock.
    std::vector<Block>::iterator chooseLarge(std::size_t bytes)
    {
        auto best = m_large.end();  // the smallest that holds `bytes`
        auto grown = m_large.end(); // the largest that does not
        for (auto it = m_large.begin(); it != m_large.end(); ++it) {
            if (it->capacity >= bytes) {
                if (best == m_large.end() || it->capacity < best->capacity) best = it;
            } else if (grown == m_large.end() || it->capacity > grown->capacity) {
                grown = it;
            }
        }
        // A much bigger buffer stays kept for the size that needs it: lent to a small tensor,
        // it could not go back when the big tensor is gone for good.
        return best != m_large.end() && best->capacity / 2 <= bytes ? best : grown;
    }

    Block acquireLarge(std::size_t bytes)
    {
        Block kept;
        {
            std::unique_lock lock(m_mutex);
            auto chosen = chooseLarge(bytes);
            // The buffer being prepared would do and no kept one holds the request: its
            // preparation stops at its next page and the request takes it as it is, rather
            // than mapping one more buffer beside it (the workbench prepares the next edit's
            // output while the window is idle, and the edit may come meanwhile).
            if ((chosen == m_large.end() || chosen->capacity < bytes) && m_preparingBytes > 0 &&
                m_preparingBytes / 2 <= bytes) {
                while (m_preparingBytes > 0) { // (another may have started meanwhile)
                    m_handOver.store(true, std::memory_order_relaxed);
                    m_prepared.wait(lock);
                }
                chosen = chooseLarge(bytes);
            }
            kept = takeLarge(chosen);
        }
        return sizedFor(kept, bytes);
    }

    // Takes `chosen` (chooseLarge's answer) out of the kept buffers; call under the lock.
    Block takeLarge(std::vector<Block>::iterator chosen)
    {
        if (chosen == m_large.end()) return {};
        const Block kept = *chosen;
        m_largeBytes -= kept.capacity;
        m_large.erase(chosen);
        return kept;
    }

    // `kept` (or none) made a buffer of `bytes`: as it is if it holds them, else grown, else
    // replaced by a fresh mapping.
    static Block sizedFor(const Block& kept, std::size_t bytes)
    {
        if (kept.data && kept.capacity >= bytes) return kept;
#if defined(MREMAP_MAYMOVE)
        if (kept.data) {
            // Its pages move with it: only the growth is fresh memory.
            void* p = mremap(kept.data, kept.capacity, bytes, MREMAP_MAYMOVE);
            if (p != MAP_FAILED) return {p, bytes};
        }
#endif
        if (kept.data) unmap(kept);
        return mapFresh(bytes);
    }

    void releaseLarge(const Block& block)
    {
        std::vector<Block> evicted;
        {
            std::lock_guard lock(m_mutex);
            if (block.capacity <= m_largeMaxBytes && m_largeSlots > 0) {
                evictLargeFor(block.capacity, evicted);
                m_large.push_back(block);
                m_largeBytes += block.capacity;
            } else {
                evicted.push_back(block);
            }
        }
        // Unmapping hundreds of MB takes a while: not under the lock other threads wait on.
        for (const Block& b : evicted)
            unmap(b);
    }

    // Drops the oldest kept buffers until one of `bytes` more fits the limits.
    void evictLargeFor(std::size_t bytes, std::vector<Block>& evicted)
    {
        while (!m_large.empty() &&
               (m_large.size() >= m_largeSlots || m_largeBytes + bytes > m_largeMaxBytes)) {
            evicted.push_back(m_large.front());
            m_largeBytes -= m_large.front().capacity;
            m_large.erase(m_large.begin());
        }
    }

    // A new mapping of `bytes` that starts on a 2 MiB boundary, advised to take transparent huge
    // pages (all but a last partial 2 MiB, which gets small ones).
    static Block mapFresh(std::size_t bytes)
    {
        constexpr std::size_t kHuge = std::size_t(2) << 20;
        void* p = mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (p == MAP_FAILED) return {};
        const auto start = reinterpret_cast<std::uintptr_t>(p);
        const std::uintptr_t aligned = (start + kHuge - 1) / kHuge * kHuge;
        if (aligned > start) munmap(p, aligned - start);
        const std::uintptr_t end = start + bytes + kHuge;
        if (end > aligned + bytes)
            munmap(reinterpret_cast<void*>(aligned + bytes), end - aligned - bytes);
        madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE); // advice only
        return {reinterpret_cast<void*>(aligned), bytes};
    }

    static void unmap(const Block& b)
    {
        munmap(b.data, b.capacity);
    }

    // Buffers of one size class, most recently freed last; the oldest go first when a new one
    // would pass the count or the byte limit.
    struct FreeList
    {
        std::size_t slots;
        std::size_t maxBytes;
        std::vector<Block> buffers;
        std::size_t bytes = 0;

        void* take(std::size_t size)
        {
            for (auto it = buffers.rbegin(); it != buffers.rend(); ++it) {
                if (it->capacity == size) {
                    void* p = it->data;
                    bytes -= size;
                    buffers.erase(std::next(it).base());
                    return p;
                }
            }
            return nullptr;
        }

        void put(void* p, std::size_t size)
        {
            while (!buffers.empty() && (buffers.size() >= slots || bytes + size > maxBytes)) {
                std::free(buffers.front().data);
                bytes -= buffers.front().capacity;
                buffers.erase(buffers.begin());
            }
            buffers.push_back({p, size});
            bytes += size;
        }

        std::size_t clear()
        {
            for (const Block& b : buffers)
                std::free(b.data);
            buffers.clear();
            return std::exchange(bytes, 0);
        }
    };

    std::mutex m_mutex;
    // Small results come in more shapes (several outputs, index lists): 16 of them, 32 MiB
    // together at most.
    FreeList m_small{16, std::size_t(32) << 20, {}};
    // Large buffers, most recently freed last. By default two (an op's output and the previous
    // one still on screen, say) of 512 MiB together; keepPooledBuffers() changes that.
    std::vector<Block> m_large;
    std::size_t m_largeBytes = 0;
    std::size_t m_largeSlots = 2;
    std::size_t m_largeMaxBytes = std::size_t(512) << 20;
    // The bytes of the buffer prepareLarge() is faulting in (0: none), out of m_large until it
    // is done; m_handOver asks it to stop for a request waiting on m_prepared.
    std::size_t m_preparingBytes = 0;
    std::atomic<bool> m_handOver{false};
    std::condition_variable m_prepared;
};
} // namespace

Limits Limits::machineDefault()
{
    Limits limits;
    const MemoryLimit memory = machineMemoryLimit();
    limits.maxBytes = memory.bytes;
    limits.bytesName = memory.name;
    limits.processWide = true;
    limits.maxElements = std::min(limits.maxElements, limits.maxBytes);
    return limits;
}

std::int64_t releasePooledBuffers()
{
    // Kept file mappings are page cache, not allocated memory: their bytes are not counted.
    releaseIdleMappings();
    return BufferPool::instance().releaseAll();
}

bool prepareReusableBuffer(std::int64_t bytes, const std::function<bool()>& stop)
{
    return bytes > 0 && BufferPool::instance().prepareLarge(std::size_t(bytes), stop);
}

void keepPooledBuffers(int largeBuffers, std::int64_t largeBytes)
{
    BufferPool::instance().setLargeLimits(std::size_t(std::max(0, largeBuffers)),
                                          std::size_t(std::max<std::int64_t>(0, largeBytes)));
}

namespace {

// What a request that would otherwise be refused gets back from the process: the buffers kept
// for reuse, and the freed memory the heap keeps (the workbench never trims it on free, for
// speed). Returns the resident memory that went back.
std::int64_t reclaimForRequest()
{
    const std::int64_t before = residentBytes();
    releasePooledBuffers();
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    return std::max<std::int64_t>(0, before - residentBytes());
}

} // namespace

Limits withMaxBytes(const Limits& given, std::int64_t bytes)
{
    Limits limits = given;
    if (bytes < limits.maxBytes) {
        limits.maxBytes = bytes;
        limits.bytesName = "the --max-bytes limit";
        limits.processWide = false;
    }
    return limits;
}

Limits Limits::forRequest() const
{
    // Against a limit on the whole process, what it holds counts, with room for its worker
    // threads' stacks and allocator arenas to grow while the request runs (about 3 MB measured
    // with two workers).
    constexpr std::int64_t kThreadsReserve = std::int64_t(16) << 20;
    Limits limits = *this;
    if (!processWide) {
        limits.budget = std::make_shared<MemoryBudget>(maxBytes, bytesName);
        return limits;
    }
    // Mapped input files are page cache, not held memory: they do not count.
    const std::int64_t resident = allocatedResidentBytes();
    const std::int64_t held = resident + kThreadsReserve;
    // The machine is shared: what is free now binds when it is less than the process's limit
    // leaves (the resident memory is not in it, so it is added back).
    const MemoryLimit available = availableMemory(availableMemoryRoot());
    if (available.bytes < maxBytes - resident)
        limits.budget =
            std::make_shared<MemoryBudget>(resident + available.bytes, available.name, held, true);
    else
        limits.budget = std::make_shared<MemoryBudget>(maxBytes, bytesName, held);
    // Buffers kept for reuse and freed heap memory are part of the resident memory; a request
    // that needs the room gets it back.
    limits.budget->setReclaim(reclaimForRequest);
    return limits;
}

namespace {

// The checks every tensor passes, allocated or file-backed: rank, signs, and a count that fits.
std::int64_t checkedShapeElements(const Shape& shape, const std::string& what)
{
    if (shape.size() > std::size_t(kMaxRank))
        invalidArgument(what + " would have rank " + std::to_string(shape.size()) + " (shape " +
                        shapeString(shape) + "); tensors may have rank 0 to " +
                        std::to_string(kMaxRank));
    for (std::int64_t d : shape)
        if (d < 0)
            invalidArgument(what + " would have a negative dimension: " + shapeString(shape));
    const auto n = checkedNumElements(shape);
    if (!n) {
        const bool hasZero = std::find(shape.begin(), shape.end(), 0) != shape.end();
        throw OpError(ErrorCode::ResourceExhausted,
                      what + " of shape " + shapeString(shape) +
                          " is too big: its sizes multiply past 2^63 - 1 elements" +
                          (hasZero ? " (a size of 0 does not make it an empty array; NumPy "
                                     "refuses it too)"
                                   : ""));
    }
    return *n;
}

} // namespace

std::int64_t Limits::checkFileBacked(const Shape& shape, DType dtype, const std::string& what) const
{
    const std::int64_t n = checkedShapeElements(shape, what);
    if (n > kMaxFileBackedElements)
        throw OpError(ErrorCode::ResourceExhausted, what + " of shape " + shapeString(shape) + " " +
                                                        std::string(dtypeName(dtype)) + " has " +
                                                        std::to_string(n) + " elements, over the " +
                                                        std::to_string(kMaxFileBackedElements) +
                                                        " (2^40) a mapped file may hold");
    return n;
}

std::int64_t Limits::check(const Shape& shape, DType dtype, const std::string& what) const
{
    const std::int64_t n = checkedShapeElements(shape, what);
    if (n > maxElements)
        throw OpError(ErrorCode::ResourceExhausted, what + " of shape " + shapeString(shape) +
                                                        " has " + std::to_string(n) +
                                                        " elements, over the limit of " +
                                                        std::to_string(maxElements) + " elements");
    if (n > maxBytes / dtypeSize(dtype))
        throw OpError(ErrorCode::ResourceExhausted,
                      what + " of shape " + shapeString(shape) + " " +
                          std::string(dtypeName(dtype)) + " needs " +
                          (n > std::numeric_limits<std::int64_t>::max() / dtypeSize(dtype)
                               ? std::string("more than 2^63 bytes")
                               : byteSizeText(n * dtypeSize(dtype)) + " (" +
                                     std::to_string(n * dtypeSize(dtype)) + " bytes)") +
                          ", over " + bytesName + " of " + byteSizeText(maxBytes));
    return n;
}

std::int64_t Limits::reserve(const Shape& shape, DType dtype, const std::string& what) const
{
    const std::int64_t n = check(shape, dtype, what);
    charge(n * dtypeSize(dtype),
           what + " of shape " + shapeString(shape) + " " + std::string(dtypeName(dtype)));
    return n;
}

void Limits::charge(std::int64_t bytes, const std::string& what) const
{
    if (budget) budget->charge(bytes, what);
}

Tensor Tensor::empty(DType dtype, Shape shape, const Limits& limits)
{
    Tensor t;
    t.m_size = limits.reserve(shape, dtype, "a tensor");
    t.m_dtype = dtype;
    t.m_shape = std::move(shape);
    t.m_valid = true;
    if (t.m_size == 0) return t;
    if (dtype == DType::String) {
        t.m_data = std::shared_ptr<void>(new std::string[std::size_t(t.m_size)],
                                         [](void* p) { delete[] static_cast<std::string*>(p); });
    } else {
        // At least 64-byte alignment keeps elements inside cache lines and lets copies vectorise.
        const std::size_t bytes =
            BufferPool::roundedSize(std::size_t(t.m_size) * std::size_t(dtypeSize(dtype)));
        const BufferPool::Block block = BufferPool::instance().acquire(bytes);
        if (!block.data)
            throw OpError(ErrorCode::ResourceExhausted,
                          "could not allocate " + std::to_string(bytes) + " bytes");
        t.m_data = std::shared_ptr<void>(block.data,
                                         [block](void*) { BufferPool::instance().release(block); });
    }
    return t;
}

Tensor Tensor::zeros(DType dtype, Shape shape, const Limits& limits)
{
    Tensor t = empty(dtype, std::move(shape), limits);
    if (dtype != DType::String && t.m_size > 0)
        std::memset(t.raw(), 0, std::size_t(t.m_size) * std::size_t(dtypeSize(dtype)));
    return t;
}

Tensor Tensor::wrap(DType dtype, Shape shape, std::shared_ptr<void> data, const Limits& limits)
{
    if (dtype == DType::String) invalidArgument("a string tensor cannot wrap a buffer");
    Tensor t;
    t.m_size = limits.checkFileBacked(shape, dtype, "a tensor");
    t.m_dtype = dtype;
    t.m_shape = std::move(shape);
    t.m_valid = true;
    if (t.m_size > 0) t.m_data = std::move(data);
    return t;
}

void checkMappedInputs(const std::vector<Tensor>& tensors)
{
    for (const Tensor& t : tensors)
        if (t.raw())
            if (const auto problem = mappedFileProblem(t.raw()))
                throw OpError(ErrorCode::BadRequest, *problem);
}

Tensor Tensor::fromInts(DType dtype, Shape shape, const std::vector<std::int64_t>& values)
{
    Tensor t = empty(dtype, std::move(shape));
    for (std::int64_t i = 0; i < t.m_size; ++i)
        t.setFromInt(i, values[std::size_t(i)]);
    return t;
}

Tensor Tensor::clone(const Limits& limits) const
{
    if (!m_valid) return {};
    Tensor t = empty(m_dtype, m_shape, limits);
    t.m_bytes = m_bytes;
    t.m_itemLength = m_itemLength;
    if (m_size == 0) return t;
    if (m_dtype == DType::String)
        std::copy_n(data<std::string>(), m_size, t.data<std::string>());
    else
        std::memcpy(t.raw(), raw(), std::size_t(m_size) * std::size_t(dtypeSize(m_dtype)));
    return t;
}

Tensor Tensor::reshaped(Shape shape) const
{
    Tensor t = *this;
    t.m_shape = std::move(shape);
    return t;
}

Tensor Tensor::view(std::int64_t offset, Shape shape) const
{
    if (m_dtype == DType::String) invalidArgument("a string tensor cannot be viewed in place");
    const auto n = checkedNumElements(shape);
    if (!n || offset < 0 || *n > m_size - offset)
        throw OpError(ErrorCode::Internal, "a view of elements outside its tensor");
    Tensor t;
    t.m_dtype = m_dtype;
    t.m_shape = std::move(shape);
    t.m_size = *n;
    t.m_valid = true;
    // The aliasing constructor: the view points into the buffer and owns a share of all of it.
    if (t.m_size > 0)
        t.m_data = std::shared_ptr<void>(m_data, static_cast<char*>(m_data.get()) +
                                                     offset * std::int64_t(dtypeSize(m_dtype)));
    return t;
}

std::int64_t Tensor::intAt(std::int64_t i) const
{
    return visitDType(m_dtype, [&](auto tag) -> std::int64_t {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, std::string>)
            return 0;
        else if constexpr (std::is_integral_v<T>)
            return static_cast<std::int64_t>(data<T>()[i]);
        else
            return static_cast<std::int64_t>(realValue(data<T>()[i]));
    });
}

double Tensor::doubleAt(std::int64_t i) const
{
    return visitDType(m_dtype, [&](auto tag) -> double {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, std::string>)
            return 0;
        else
            return realValue(data<T>()[i]);
    });
}

std::complex<double> Tensor::complexAt(std::int64_t i) const
{
    return visitDType(m_dtype, [&](auto tag) -> std::complex<double> {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, std::string>)
            return 0;
        else if constexpr (kIsComplex<T>)
            return std::complex<double>(data<T>()[i]);
        else
            return realValue(data<T>()[i]);
    });
}

void Tensor::setFromInt(std::int64_t i, std::int64_t value)
{
    visitDType(m_dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, std::string>)
            data<T>()[i] = std::to_string(value);
        else
            data<T>()[i] = fromInteger<T>(value);
    });
}

void Tensor::setFromDouble(std::int64_t i, double value)
{
    visitDType(m_dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, std::string>)
            data<T>()[i] = std::to_string(value);
        else
            data<T>()[i] = fromReal<T>(value);
    });
}

void Tensor::setFromComplex(std::int64_t i, std::complex<double> value)
{
    visitDType(m_dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, std::string>)
            data<T>()[i] = std::to_string(value.real());
        else if constexpr (kIsComplex<T>)
            data<T>()[i] = T(value);
        else
            data<T>()[i] = fromReal<T>(value.real());
    });
}

std::vector<std::int64_t> Tensor::toInt64Vector() const
{
    std::vector<std::int64_t> out(static_cast<std::size_t>(m_size));
    for (std::int64_t i = 0; i < m_size; ++i)
        out[std::size_t(i)] = intAt(i);
    return out;
}

bool Tensor::identical(const Tensor& other) const
{
    if (m_valid != other.m_valid || m_dtype != other.m_dtype || m_shape != other.m_shape ||
        m_bytes != other.m_bytes)
        return false;
    if (m_dtype == DType::String && numpyStringLength(*this) != numpyStringLength(other))
        return false;
    if (m_size == 0) return true;
    if (m_dtype == DType::String)
        return std::equal(data<std::string>(), data<std::string>() + m_size,
                          other.data<std::string>());
    return std::memcmp(raw(), other.raw(), std::size_t(m_size) * std::size_t(dtypeSize(m_dtype))) ==
           0;
}

namespace {
constexpr std::uint64_t kRandomStep = 0x9E3779B97F4A7C15ull;
// Elements a worker fills at least: 256 KiB of float32, so that a small fill stays on one thread.
constexpr std::int64_t kFillGrain = std::int64_t(1) << 16;

// splitmix64: tiny, fast, and the same sequence on every platform.
std::uint64_t nextRandom(std::uint64_t& state)
{
    std::uint64_t z = (state += kRandomStep);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
} // namespace

std::string_view fillName(Fill fill)
{
    switch (fill) {
    case Fill::Arange: return "arange";
    case Fill::Zeros: return "zeros";
    case Fill::Ones: return "ones";
    case Fill::Random: break;
    }
    return "random";
}

namespace {
// Elements [begin, end) of a fill. Random element i takes the generator's (i + 1)-th value
// (splitmix64 steps its state by a constant), so any range can start on its own.
template <class T>
void fillRange(T* out, std::int64_t begin, std::int64_t end, Fill fill, std::uint64_t seed)
{
    std::uint64_t state = seed + std::uint64_t(begin) * kRandomStep;
    for (std::int64_t i = begin; i < end; ++i) {
        if constexpr (std::is_same_v<T, std::string>) {
            switch (fill) {
            case Fill::Arange: out[i] = std::to_string(i); break;
            case Fill::Zeros: out[i] = ""; break;
            case Fill::Ones: out[i] = "1"; break;
            case Fill::Random: out[i] = "r" + std::to_string(nextRandom(state) % 100); break;
            }
        } else if constexpr (std::is_same_v<T, bool>) {
            switch (fill) {
            case Fill::Arange: out[i] = (i % 2) != 0; break;
            case Fill::Zeros: out[i] = false; break;
            case Fill::Ones: out[i] = true; break;
            case Fill::Random: out[i] = (nextRandom(state) & 1) != 0; break;
            }
        } else {
            switch (fill) {
            case Fill::Arange: out[i] = fromInteger<T>(i); break;
            case Fill::Zeros: out[i] = fromInteger<T>(0); break;
            case Fill::Ones: out[i] = fromInteger<T>(1); break;
            case Fill::Random:
                if constexpr (std::is_integral_v<T>)
                    out[i] = static_cast<T>(nextRandom(state) % 100);
                else
                    out[i] = fromReal<T>(double(nextRandom(state) >> 11) * 0x1.0p-53);
                break;
            }
        }
    }
}
} // namespace

Tensor makeFilled(DType dtype, const Shape& shape, Fill fill, std::uint64_t seed,
                  const Limits& limits, Executor* executor)
{
    Tensor t = Tensor::empty(dtype, shape, limits);
    const std::int64_t n = t.size();
    visitDType(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* out = t.data<T>();
        // The buffer is usually fresh memory, and its first touch (a page fault per 4 KB, more
        // in a VM) costs more than the values: on every worker, both halve (10^8 float32).
        // Strings are allocated one by one: in order.
        if (executor && !std::is_same_v<T, std::string>) {
            executor->parallelFor(n, kFillGrain, [&](std::int64_t begin, std::int64_t end) {
                fillRange(out, begin, end, fill, seed);
            });
        } else {
            fillRange(out, 0, n, fill, seed);
        }
    });
    return t;
}

} // namespace ss
