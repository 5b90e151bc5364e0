// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan.h"

#include <vector>

namespace ss {

/// Before an output's pieces run (executePlan): the pages of a mapped input file that its affine
/// pieces read at scattered places are asked of the kernel all at once (adviseWillRead), exactly
/// those. A strided view such as x[::1000, ::-7] of a 16 GB file reads 200 rows of 80 KB, 80 MB
/// apart; without the advice each row's first touch waited for a readahead window around it (8
/// MiB), one row after the other: 1.6 GB read for 16 MB used. A piece is read as blocks: its
/// inner axes whose blocks lie less than kReadThroughBytes apart make one block (gaps that small
/// are read through), repeated over the outer axes. A piece that is one block, or whose blocks
/// cover more than half of the bytes they span (a dense read, which the kernel's readahead reads
/// in order best), is left to the kernel, as are pieces of more than kMostBlocks blocks or
/// kMostAdvisedBytes bytes (they would be read ahead of the copy and might not stay cached until
/// it comes). Nothing for inputs that are not mapped files, nor for other pieces.
void adviseScatteredPlanReads(const OutputPlan& out, const std::vector<Tensor>& inputs);

} // namespace ss
