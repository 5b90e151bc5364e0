// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/sourcemap.h"

#include <string>

namespace ss::ui {

SourceMap::SourceMap(std::vector<SourceList> stored)
{
    for (SourceList& sources : stored)
        m_stored.push_back(std::make_shared<const SourceList>(std::move(sources)));
}

SourceMap::SourceMap(std::shared_ptr<const AffinePlanMap> plan) : m_plan(std::move(plan)) {}

SourceMap::SourceMap(std::shared_ptr<const IndexPlanMap> plan) : m_index(std::move(plan)) {}

SourceMap::SourceMap(std::shared_ptr<const RowsPlanMap> plan) : m_rows(std::move(plan)) {}

SourceMap::SourceMap(std::shared_ptr<const ScatterPlanMap> plan) : m_scatter(std::move(plan)) {}

std::optional<SourceMap> SourceMap::fromPlan(const OpPlan& plan, const std::vector<Tensor>& inputs,
                                             const Limits& limits, JobContext* ctx)
{
    std::vector<Shape> shapes;
    std::vector<std::int64_t> sizes;
    for (const Tensor& t : inputs) {
        shapes.push_back(t.shape());
        sizes.push_back(t.size());
    }
    if (auto affine = AffinePlanMap::make(plan, shapes)) return SourceMap(std::move(affine));
    // Rows picked in order before any row list: their bitmaps are smaller than an index.
    if (auto rows = RowsPlanMap::make(plan, sizes)) {
        limits.charge(rows->bytes(), "the bitmaps of the rows the op picks, which the workbench "
                                     "keeps (" +
                                         std::to_string(rows->bytes()) + " bytes)");
        if (rows->markRows(plan, ctx)) return SourceMap(std::shared_ptr<const RowsPlanMap>(rows));
    }
    if (auto scatter = ScatterPlanMap::make(plan, sizes)) {
        limits.charge(scatter->bytes(), "the last writer of every output row, which the workbench "
                                        "keeps (" +
                                            std::to_string(scatter->bytes()) + " bytes)");
        if (scatter->findWinners(ctx))
            return SourceMap(std::shared_ptr<const ScatterPlanMap>(scatter));
    }
    if (auto index = IndexPlanMap::make(plan, sizes, limits)) {
        const std::int64_t block = index->blockLength();
        limits.charge(
            index->orderBytes(),
            "the read order the workbench keeps for the " +
                std::to_string(sizes[std::size_t(index->readSlot())]) +
                " elements an index reads from (4 bytes " +
                (block == 1 ? std::string("each") : "per block of " + std::to_string(block)) + ")");
        index->numberReads(ctx);
        return SourceMap(std::shared_ptr<const IndexPlanMap>(std::move(index)));
    }
    return std::nullopt;
}

int SourceMap::outputCount() const
{
    if (m_index) return m_index->outputCount();
    if (m_rows) return m_rows->outputCount();
    if (m_scatter) return m_scatter->outputCount();
    return m_plan ? m_plan->outputCount() : int(m_stored.size());
}

std::int64_t SourceMap::outputSize(int output) const
{
    if (output < 0 || output >= outputCount()) return 0;
    if (m_index) return m_index->outputSize();
    if (m_rows) return m_rows->outputSize(output);
    if (m_scatter) return m_scatter->outputSize(output);
    return m_plan ? m_plan->outputSize(output)
                  : std::int64_t(m_stored[std::size_t(output)]->size());
}

std::int64_t SourceMap::source(int output, std::int64_t index) const
{
    if (index < 0 || index >= outputSize(output)) return kNoSource;
    if (m_index) return m_index->source(index);
    if (m_rows) return m_rows->source(output, index);
    if (m_scatter) return m_scatter->source(output, index);
    return m_plan ? m_plan->source(output, index)
                  : (*m_stored[std::size_t(output)])[std::size_t(index)];
}

std::vector<std::vector<std::int64_t>> SourceMap::targets(int slot, std::int64_t index) const
{
    std::vector<std::vector<std::int64_t>> targets(static_cast<std::size_t>(outputCount()));
    if (m_plan) {
        if (slot < 0 || slot >= m_plan->slotCount()) return targets;
        return m_plan->targets(slot, index);
    }
    if (m_index) {
        if (slot < 0 || slot >= m_index->slotCount()) return targets;
        return m_index->targets(slot, index);
    }
    if (m_rows) return m_rows->targets(slot, index);
    if (m_scatter) return m_scatter->targets(slot, index);
    const std::int64_t wanted = packSource(slot, index);
    for (std::size_t k = 0; k < m_stored.size(); ++k) {
        const SourceList& sources = *m_stored[k];
        for (std::size_t i = 0; i < sources.size(); ++i)
            if (sources[i] == wanted) targets[k].push_back(std::int64_t(i));
    }
    return targets;
}

std::int64_t SourceMap::targetsCost() const
{
    if (m_plan || m_rows || m_scatter) return 0;
    if (m_index) return m_index->rows();
    std::int64_t total = 0;
    for (const auto& sources : m_stored)
        total += std::int64_t(sources->size());
    return total;
}

std::int64_t SourceMap::bytes() const
{
    // An affine plan's map keeps no sources (an index plan's read order is the order's own
    // bytes); a row-picking plan's keeps its bitmaps.
    if (m_rows) return m_rows->bytes();
    if (m_scatter) return m_scatter->bytes();
    if (m_index) return m_index->rowBytes();
    if (m_plan) return 0;
    return targetsCost() * std::int64_t(sizeof(std::int64_t));
}

} // namespace ss::ui
