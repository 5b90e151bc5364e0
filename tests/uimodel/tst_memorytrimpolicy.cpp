// SPDX-License-Identifier: GPL-3.0-or-later
// When the workbench gives kept memory back: never while the same big tensor is being edited
// (its next edit would fault all of it in again), always once the big tensor is gone.
#include "core/memory_budget.h"
#include "core/tensor.h"
#include "ui/model/engineclient.h"
#include "ui/model/memorytrimpolicy.h"

#include <QTest>

#include <cstdlib>

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace ss::ui;

namespace {

constexpr std::int64_t MB = std::int64_t(1) << 20;

// Called through volatile pointers, so that the compiler cannot treat them as the builtins and
// drop a malloc and free pair whose memory is never used.
void* (*volatile g_malloc)(std::size_t) = std::malloc;
void (*volatile g_free)(void*) = std::free;

} // namespace

class TestMemoryTrimPolicy : public QObject
{
    Q_OBJECT
private slots:
    void freeNeverGivesMemoryBack()
    {
#if !defined(__GLIBC__) || defined(SLICESCOPE_ASAN)
        QSKIP("glibc's allocator only");
#else
        // Freed blocks that add up to more than 1 GB at the heap's top used to go back to the
        // kernel inside free(), holding the allocator's one lock for half a second. Untouched
        // blocks: the heap grows by address space only, no page is ever faulted in.
        keepFreedMemoryForReuse();
        const std::size_t block = std::size_t(600) << 20;
        void* a = g_malloc(block);
        void* b = g_malloc(block);
        QVERIFY(a && b);
        const std::size_t grown = mallinfo2().arena;
        g_free(b);
        g_free(a);
        QVERIFY2(mallinfo2().arena >= grown, "free() trimmed the heap");
        malloc_trim(0); // what MemoryTrimPolicy decides when
        QVERIFY(mallinfo2().arena < grown - block);
#endif
    }

    void keepsWhatTheNextEditNeeds()
    {
        MemoryTrimPolicy policy;
        for (int i = 0; i < 5; ++i)
            policy.evaluated(2400 * MB); // edits of one 10^8-element tensor
        QVERIFY(!policy.trimAfterQuietSpell());
        QVERIFY(!policy.trimAfterQuietSpell()); // however many quiet spells
        // Edits of the same tensor vary a little (x[::2] keeps half the output).
        policy.evaluated(1800 * MB);
        QVERIFY(!policy.trimAfterQuietSpell());
    }

    void returnsMemoryOnceTheBigTensorIsGone()
    {
        MemoryTrimPolicy policy;
        policy.evaluated(2400 * MB);
        policy.evaluated(1 * MB); // a small tensor now
        QVERIFY(policy.trimAfterQuietSpell());
        // Given back: nothing more to return until a big evaluation comes again.
        QVERIFY(!policy.trimAfterQuietSpell());
        policy.evaluated(1 * MB);
        QVERIFY(!policy.trimAfterQuietSpell());
        policy.evaluated(900 * MB);
        policy.evaluated(300 * MB);
        QVERIFY(policy.trimAfterQuietSpell());
    }

    void smallSurplusesStay()
    {
        MemoryTrimPolicy policy;
        policy.evaluated(40 * MB);
        policy.evaluated(0);
        QVERIFY(!policy.trimAfterQuietSpell()); // under kMinSurplusBytes
        policy.evaluated(MemoryTrimPolicy::kMinSurplusBytes);
        policy.evaluated(0);
        QVERIFY(policy.trimAfterQuietSpell());
    }

    // What the workbench keeps of freed tensor buffers, by the memory the process may use.
    void keptBuffersFollowTheMachine_data()
    {
        QTest::addColumn<qint64>("memory");
        QTest::addColumn<qint64>("keepsUpTo"); // a freed buffer of this size is kept
        QTest::addColumn<qint64>("dropsFrom"); // one of this size goes back at once
        // The 24 GB development machine: a 10^8-element float32 output (400 MB) is kept, the
        // previous int8 output of a 10^9-element file (1 GB) is not.
        QTest::newRow("24 GB") << qint64(24'000'000'000) << qint64(400'000'000)
                               << qint64(1'000'000'000);
        QTest::newRow("16 GB") << qint64(16'000'000'000) << qint64(400'000'000)
                               << qint64(600'000'000);
        // Never more than 2 GiB, however big the machine.
        QTest::newRow("1 TB") << qint64(1'000'000'000'000) << qint64(2048 * MB)
                              << qint64(2048 * MB + 1);
        // A 400 MB cgroup keeps a 10^6-element float32 buffer's worth, not a 10^7 one's.
        QTest::newRow("400 MB cgroup") << qint64(400 * MB) << qint64(4 * MB) << qint64(40 * MB);
        QTest::newRow("nothing") << qint64(0) << qint64(0) << qint64(1);
    }

    void keptBuffersFollowTheMachine()
    {
        QFETCH(qint64, memory);
        QFETCH(qint64, keepsUpTo);
        QFETCH(qint64, dropsFrom);
        QVERIFY(keptBufferBytes(memory) >= keepsUpTo);
        QVERIFY(keptBufferBytes(memory) < dropsFrom);
    }

    void aBufferOverTheBudgetGoesBackWhenFreed()
    {
        // The pool as the workbench sets it up: a freed buffer within the machine's budget
        // stays for the next edit, one over it goes back at once. Untouched buffers: address
        // space only, no page is faulted in.
        keepFreedMemoryForReuse();
        ss::releasePooledBuffers();
        const std::int64_t budget = keptBufferBytes(ss::machineMemoryLimit().bytes);
        // In a small memory cgroup (400 MB: 12.5 MB) no buffer of the pool's large sizes (8 MiB
        // and more) fits under half the budget; on any machine one over it goes back.
        if (budget >= 16 * MB) {
            {
                const ss::Tensor within = ss::Tensor::empty(ss::DType::Int8, {budget / 2});
            }
            QVERIFY(ss::releasePooledBuffers() >= budget / 2);
        }
        {
            const ss::Tensor over = ss::Tensor::empty(ss::DType::Int8, {budget + 8 * MB});
        }
        QCOMPARE(ss::releasePooledBuffers(), std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestMemoryTrimPolicy)
#include "tst_memorytrimpolicy.moc"
