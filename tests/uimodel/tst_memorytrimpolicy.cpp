// SPDX-License-Identifier: GPL-3.0-or-later
// When the workbench gives kept memory back: never while the same big tensor is being edited
// (its next edit would fault all of it in again), always once the big tensor is gone.
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
#if defined(__GLIBC__) && !defined(SLICESCOPE_ASAN)
void* (*volatile g_malloc)(std::size_t) = std::malloc;
void (*volatile g_free)(void*) = std::free;
#endif

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
};

QTEST_GUILESS_MAIN(TestMemoryTrimPolicy)
#include "tst_memorytrimpolicy.moc"
