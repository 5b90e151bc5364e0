// SPDX-License-Identifier: GPL-3.0-or-later
// Where an evaluation's output elements came from, and where its input elements went: from the
// plan itself for affine plans (AffinePlanMap, no memory per element), gathers and row lists
// (IndexPlanMap, which reads the index tensor in place), plans that pick rows in order
// (RowsPlanMap, a bitmap of the rows picked) and scatters (ScatterPlanMap, each output row's last
// writer), else from the engine's per-element sources.
#pragma once

#include "core/plan.h"
#include "ui/model/affineplanmap.h"
#include "ui/model/indexplanmap.h"
#include "ui/model/rowsplanmap.h"
#include "ui/model/scatterplanmap.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace ss::ui {

/// An evaluation's sources. Cheap to copy (shares what it answers from), immutable.
class SourceMap
{
public:
    SourceMap() = default;
    /// Per output: packSource(slot, index) or kNoSource for every element.
    explicit SourceMap(std::vector<SourceList> stored);
    explicit SourceMap(std::shared_ptr<const AffinePlanMap> plan);
    explicit SourceMap(std::shared_ptr<const IndexPlanMap> plan);
    explicit SourceMap(std::shared_ptr<const RowsPlanMap> plan);
    explicit SourceMap(std::shared_ptr<const ScatterPlanMap> plan);

    /// The sources of `plan` run on `inputs` (slot order) worked out from the plan itself (by
    /// AffinePlanMap, RowsPlanMap, ScatterPlanMap or IndexPlanMap, tried in that order), or none if
    /// no map answers for it: the plan then needs the engine's stored sources. What a map keeps is
    /// charged to `limits` before it is made; its passes over the plan check `ctx` (which may be
    /// null).
    static std::optional<SourceMap> fromPlan(const OpPlan& plan, const std::vector<Tensor>& inputs,
                                             const Limits& limits, JobContext* ctx);

    /// The outputs it knows (0 for an evaluation that failed).
    int outputCount() const;
    /// Output `output`'s element count.
    std::int64_t outputSize(int output) const;
    /// packSource(slot, index) of output `output`'s element `index`, or kNoSource (a constant,
    /// or an element that does not exist).
    std::int64_t source(int output, std::int64_t index) const;
    /// The output elements copied from input slot `slot`'s element `index`: per output, in
    /// output order.
    std::vector<std::vector<std::int64_t>> targets(int slot, std::int64_t index) const;
    /// The elements targets() looks at: every output element for stored sources, none for an
    /// affine plan (which inverts its pieces), a row-picking one (a rank per output) or a
    /// scatter (an index read), the rows of an index plan (it scans them).
    std::int64_t targetsCost() const;
    /// The memory it keeps (a row-picking plan's bitmaps, a scatter's winners, a row list's
    /// starts; an index plan's read order is the order's own bytes).
    std::int64_t bytes() const;

    /// The plan's map, if the sources come from it (else null).
    const std::shared_ptr<const AffinePlanMap>& plan() const { return m_plan; }
    /// The index plan's map, if the sources come from it (else null).
    const std::shared_ptr<const IndexPlanMap>& indexPlan() const { return m_index; }
    /// The row-picking plan's map, if the sources come from it (else null).
    const std::shared_ptr<const RowsPlanMap>& rowsPlan() const { return m_rows; }
    /// The scatter plan's map, if the sources come from it (else null).
    const std::shared_ptr<const ScatterPlanMap>& scatterPlan() const { return m_scatter; }
    /// The stored sources, if there are (else empty).
    const std::vector<std::shared_ptr<const SourceList>>& stored() const { return m_stored; }

private:
    std::vector<std::shared_ptr<const SourceList>> m_stored;
    std::shared_ptr<const AffinePlanMap> m_plan;
    std::shared_ptr<const IndexPlanMap> m_index;
    std::shared_ptr<const RowsPlanMap> m_rows;
    std::shared_ptr<const ScatterPlanMap> m_scatter;
};

} // namespace ss::ui
