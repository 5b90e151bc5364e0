// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan.h"

#include "core/mapped_file.h"

#include <algorithm>
#include <cstring>

namespace ss {

AffinePiece OutputPlan::identityPiece(int slot, const Shape& shape)
{
    AffinePiece p;
    p.slot = slot;
    p.extents = shape;
    p.inStrides = rowMajorStrides(shape);
    p.outStrides = p.inStrides;
    return p;
}

AffinePiece OutputPlan::fillPiece(std::int64_t constantIndex, const Shape& shape)
{
    AffinePiece p;
    p.slot = kConstantSlot;
    p.inOffset = constantIndex;
    p.extents = shape;
    p.inStrides.assign(shape.size(), 0);
    p.outStrides = rowMajorStrides(shape);
    return p;
}

AffinePiece OutputPlan::emptyPiece(int slot, const Shape& extents)
{
    AffinePiece p;
    p.slot = slot;
    p.extents = extents;
    p.inStrides.assign(extents.size(), 0);
    p.outStrides.assign(extents.size(), 0);
    return p;
}

std::int64_t OutputPlan::addConstant(const Tensor& value)
{
    if ((dtype == DType::String) != (value.dtype() == DType::String))
        invalidArgument("a " + std::string(dtypeName(dtype)) + " tensor cannot take a " +
                        std::string(dtypeName(value.dtype())) + " constant");
    const std::int64_t n = constants.isValid() ? constants.size() : 0;
    Tensor grown = Tensor::empty(dtype, {n + 1});
    if (dtype == DType::String) {
        std::copy_n(constants.data<std::string>(), n, grown.data<std::string>());
        grown.data<std::string>()[n] = value.data<std::string>()[0];
    } else {
        if (n > 0) std::memcpy(grown.raw(), constants.raw(), std::size_t(n * dtypeSize(dtype)));
        if (isComplex(value.dtype()))
            grown.setFromComplex(n, value.complexAt(0));
        else if (isFloat(value.dtype()))
            grown.setFromDouble(n, value.doubleAt(0));
        else
            grown.setFromInt(n, value.intAt(0));
    }
    constants = grown;
    return n;
}

namespace {

// Whether the dimensions of extent > 1, in order, are row-major contiguous for `strides`.
bool contiguous(const std::vector<std::int64_t>& extents, const std::vector<std::int64_t>& strides)
{
    std::int64_t expected = 1;
    for (std::size_t d = extents.size(); d-- > 0;) {
        if (extents[d] == 1) continue;
        if (strides[d] != expected) return false;
        expected *= extents[d];
    }
    return true;
}

} // namespace

std::optional<InputRun> OutputPlan::contiguousRun(const std::vector<Tensor>& inputs) const
{
    if (computed.isValid() || pieces.size() != 1) return std::nullopt;
    const auto* p = std::get_if<AffinePiece>(&pieces.front());
    if (!p || p->slot < 0 || p->slot >= int(inputs.size())) return std::nullopt;
    const Tensor& input = inputs[std::size_t(p->slot)];
    if (!input.isValid() || input.dtype() != dtype || p->inOffset < 0 || p->outOffset != 0 ||
        p->extents.size() != p->inStrides.size() || p->extents.size() != p->outStrides.size())
        return std::nullopt;
    const auto n = checkedNumElements(shape);
    if (!n || *n == 0 || p->inOffset > input.size() || *n > input.size() - p->inOffset)
        return std::nullopt;
    const auto count = checkedNumElements(p->extents);
    if (!count || *count != *n) return std::nullopt;
    if (!contiguous(p->extents, p->inStrides) || !contiguous(p->extents, p->outStrides))
        return std::nullopt;
    return InputRun{p->slot, p->inOffset};
}

std::optional<InputRun> OutputPlan::sharedRun(const std::vector<Tensor>& inputs) const
{
    const auto run = contiguousRun(inputs);
    if (!run) return std::nullopt;
    const Tensor& input = inputs[std::size_t(run->slot)];
    if (run->offset == 0 && input.size() == numElements(shape)) return run;
    const auto address = reinterpret_cast<std::uintptr_t>(input.raw()) +
                         std::uintptr_t(run->offset * dtypeSize(input.dtype()));
    if (address % 64 == 0 && isMappedFile(input.raw())) return run;
    return std::nullopt;
}

std::int64_t OutputPlan::checkSize(const std::vector<Tensor>& inputs, const Limits& limits,
                                   const std::string& what) const
{
    return sharedRun(inputs) ? limits.checkFileBacked(shape, dtype, what)
                             : limits.check(shape, dtype, what);
}

std::int64_t OutputPlan::reserve(const std::vector<Tensor>& inputs, const Limits& limits,
                                 const std::string& what) const
{
    return sharedRun(inputs) ? limits.checkFileBacked(shape, dtype, what)
                             : limits.reserve(shape, dtype, what);
}

} // namespace ss
