// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/opeditor.h"

#include "core/error.h"
#include "core/slice_expr.h"
#include "ui/editors/argtable.h"
#include "ui/editors/attrfields.h"
#include "ui/editors/frameworkselector.h"
#include "ui/editors/speceditor.h"
#include "ui/editors/workbenchupdate.h"
#include "ui/model/engineclient.h"
#include "ui/model/frameworkcomparer.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::ui {

namespace {

constexpr int kFirstMaskColumn = 3;

std::vector<ArgTableModel::Column> rawColumns()
{
    using C = ArgTableModel::Column;
    return {
        C{QObject::tr("begin"), QObject::tr("First index (ignored where begin_mask is set)"), false,
          0},
        C{QObject::tr("end"), QObject::tr("Index to stop before (ignored where end_mask is set)"),
          false, 0},
        C{QObject::tr("stride"), QObject::tr("Step; negative walks backwards"), false, 1},
        C{QObject::tr("begin_mask"),
          QObject::tr("Set: start from the first element in the stride's direction"), true, 0},
        C{QObject::tr("end_mask"),
          QObject::tr("Set: run to the last element in the stride's direction"), true, 0},
        C{QObject::tr("ellipsis_mask"), QObject::tr("Set: this entry is ... (whole dimensions)"),
          true, 0},
        C{QObject::tr("new_axis_mask"),
          QObject::tr("Set: this entry is None (a new axis of size 1)"), true, 0},
        C{QObject::tr("shrink_axis_mask"),
          QObject::tr("Set: this entry is an index (the dimension is removed)"), true, 0},
    };
}

void showSparse(ArgTableModel* model, const SparseSpec& sparse)
{
    const std::size_t m = sparse.strides.size();
    const std::int32_t masks[] = {sparse.beginMask, sparse.endMask, sparse.ellipsisMask,
                                  sparse.newAxisMask, sparse.shrinkAxisMask};
    std::vector<ArgTableModel::Row> rows;
    for (std::size_t i = 0; i < m; ++i) {
        ArgTableModel::Row row{i < sparse.begin.size() ? sparse.begin[i] : 0,
                               i < sparse.end.size() ? sparse.end[i] : 0, sparse.strides[i]};
        for (std::int32_t mask : masks)
            row.push_back(i < 32 && ((std::uint32_t(mask) >> i) & 1u) ? 1 : 0);
        rows.push_back(std::move(row));
    }
    model->setRows(std::move(rows));
    for (int k = 0; k < 5; ++k)
        model->setExtraBits(kFirstMaskColumn + k, std::int64_t(std::uint32_t(masks[k])));
}

SparseSpec sparseFromTable(const ArgTableModel* model)
{
    SparseSpec s;
    for (const auto& row : model->rows()) {
        s.begin.push_back(row[0]);
        s.end.push_back(row[1]);
        s.strides.push_back(row[2]);
    }
    std::int32_t* masks[] = {&s.beginMask, &s.endMask, &s.ellipsisMask, &s.newAxisMask,
                             &s.shrinkAxisMask};
    for (int k = 0; k < 5; ++k)
        *masks[k] = std::int32_t(std::uint32_t(model->mask(kFirstMaskColumn + k)));
    return s;
}

QString subscriptNote(const SparseSpec& sparse, bool* problem)
{
    try {
        *problem = false;
        return QObject::tr("As a Python subscript: %1").arg(QString::fromStdString(toExpr(sparse)));
    } catch (const OpError& e) {
        *problem = true;
        return QObject::tr("No Python subscript says this: %1").arg(QString::fromUtf8(e.what()));
    }
}

std::vector<std::int64_t> intList(const Attrs& attrs, const char* name)
{
    std::vector<std::int64_t> values;
    const auto it = attrs.find(name);
    if (it == attrs.end() || !it->second.isList()) return values;
    for (const Attr& a : it->second.toList())
        values.push_back(a.isInt() ? a.toInt() : 0);
    return values;
}

// The character ranges of the spec entries a step talks about.
std::vector<SpecEditor::Range> entryRanges(const Step* step, const Evaluation* eval)
{
    std::vector<SpecEditor::Range> ranges;
    if (!step || !eval || !eval->decode) return ranges;
    for (int e : step->specEntries) {
        if (e < 0 || e >= int(eval->decode->spec.size())) continue;
        const SpecEntry& entry = eval->decode->spec[std::size_t(e)];
        if (entry.textBegin >= 0 && entry.textEnd > entry.textBegin)
            ranges.emplace_back(entry.textBegin, entry.textEnd);
    }
    return ranges;
}

QVBoxLayout* tightColumn(QWidget* owner)
{
    auto* layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    return layout;
}

// getitem and encode: the expression, and the raw arguments it encodes to.
class ExprEditor : public OpEditor
{
public:
    ExprEditor(const OpDef& def, QWidget* parent)
        : OpEditor(parent), m_spec(new SpecEditor(this)),
          m_table(new ArgTable(QStringLiteral("rawArgs"), tr("Raw strided_slice arguments"),
                               rawColumns(), this))
    {
        setObjectName(QStringLiteral("exprEditor"));
        auto* label = new QLabel(tr("E&xpression"), this);
        label->setBuddy(m_spec);
        auto* layout = tightColumn(this);
        layout->addWidget(label);
        auto* row = new QHBoxLayout;
        row->setContentsMargins(0, 0, 0, 0);
        row->addWidget(m_spec, 1);
        // Beside the expression, for the ops whose spec the framework models read with a tensor
        // (getitem; encode has none to index).
        if (FrameworkComparer::compares(def.name) && !def.inputs.empty()) {
            m_framework = new FrameworkSelector(FrameworkSelector::Reads::Expression, this);
            auto* readAs = new QLabel(tr("&read as"), this);
            readAs->setBuddy(m_framework);
            row->addWidget(readAs);
            row->addWidget(m_framework);
            connect(m_framework, &FrameworkSelector::frameworkEdited, this,
                    [this](Framework framework) {
                        showEncoding(m_spec->text());
                        emit frameworkEdited(framework);
                    });
        }
        layout->addLayout(row);
        layout->addWidget(m_table, 1);
        connect(m_spec, &SpecEditor::expressionEdited, this, [this](const QString& text) {
            showEncoding(text);
            emit attrsEdited({{"expr", Attr(text.toStdString())}}, QStringLiteral("expr"));
        });
        connect(m_table->model(), &ArgTableModel::edited, this, &ExprEditor::tableEdited);
        // A pasted call that does not read holds the result as stale, with why.
        connect(m_spec, &SpecEditor::callErrorChanged, this, &OpEditor::unreadableChanged);
    }

    std::vector<std::pair<QString, QString>> unreadableAttrs() const override
    {
        if (m_spec->callError().isEmpty()) return {};
        return {{QStringLiteral("expr"), m_spec->callError()}};
    }

    void setWorkspace(const Workspace& ws) override
    {
        const auto it = ws.attrs.find("expr");
        const QString text = it != ws.attrs.end() && it->second.isString()
                                 ? QString::fromStdString(it->second.toString())
                                 : QString();
        if (m_framework) m_framework->setFramework(ws.framework);
        m_spec->setExpression(text);
        showEncoding(text);
    }

    void showEvaluation(const Evaluation& eval) override
    {
        if (eval.ok)
            m_spec->setError(std::nullopt, {});
        else if (eval.code == ErrorCode::ParseError)
            m_spec->setError(eval.position, eval.message);
    }

    void lightStep(const Step* step, const Evaluation* eval) override
    {
        m_spec->setLitRanges(entryRanges(step, eval));
        m_table->model()->setLitRows(step ? step->specEntries : std::vector<int>{});
    }

private:
    // Why no strided_slice arguments say `sub` as `framework` reads it: an index array or a
    // mask, or (for NumPy, PyTorch and JAX) a list, which they do not read as TensorFlow's tuple.
    // Empty for a basic subscript.
    QString advancedReason(const Subscript& sub, Framework framework) const
    {
        const QString title = QString::fromUtf8(frameworkModel(framework).title());
        const bool tensorflow = framework == Framework::TensorFlow;
        if (!tensorflow && sub.form == Subscript::Form::List && sub.wholeList)
            return tr("%1 reads the list %2 by its own rules (NumPy: as an index array), not as "
                      "the tuple that strided_slice arguments spell: no table says it")
                .arg(title, QString::fromStdString(sub.wholeList->text));
        for (const SubscriptItem& it : sub.items) {
            const bool array = it.kind == SubscriptItem::Kind::IndexArray;
            // TensorFlow refuses a bool in a subscript with its own error; it is no index array.
            if (!array && (it.kind != SubscriptItem::Kind::Bool || tensorflow)) continue;
            const QString what = !array || it.arrayIsBool || it.comparison ? tr("a boolean mask")
                                                                           : tr("an index array");
            const QString text = QString::fromStdString(it.text);
            return tensorflow ? tr("TensorFlow refuses %1, %2 (NumPy, PyTorch and JAX read it): "
                                   "no strided_slice arguments say it")
                                    .arg(text, what)
                              : tr("%1 reads %2 as %3: no strided_slice arguments say it")
                                    .arg(title, text, what);
        }
        return {};
    }

    // Parsing and encoding a subscript is instant, so the table follows every keystroke; the
    // evaluation (which needs the tensor) runs on a worker. The table says only what is true of
    // the expression on show: its strided_slice arguments, or (for a subscript they cannot say)
    // nothing, with the reason in it; only while the expression is half-typed does it keep the
    // last one that could be read, and says so.
    void showEncoding(const QString& text)
    {
        const std::string expr = text.toStdString();
        const Framework framework = m_framework ? m_framework->framework() : Framework::TensorFlow;
        std::optional<Subscript> sub;
        try {
            sub = parseSubscript(expr);
        } catch (const OpError& e) {
            m_spec->setError(e.position(), QString::fromUtf8(e.what()));
            if (m_table->unavailableReason().isEmpty())
                m_table->setNote(tr("The table shows the last expression that could be read."));
            return;
        }
        const QString reason = advancedReason(*sub, framework);
        if (!reason.isEmpty() && framework != Framework::TensorFlow) {
            // That framework's to read: its result or its error comes with the evaluation.
            m_spec->setError(std::nullopt, {});
            m_table->setUnavailable(reason);
            return;
        }
        try {
            const Encoding enc = encodeSubscript(*sub);
            m_table->setUnavailable(QString());
            showSparse(m_table->model(), enc.sparse);
            QStringList labels;
            for (std::size_t i = 0; i < enc.entries.size(); ++i)
                labels << QStringLiteral("%1: %2").arg(i).arg(
                    QString::fromStdString(enc.entries[i].text));
            m_table->model()->setRowLabels(labels);
            m_table->setNote(QString());
            m_spec->setError(std::nullopt, {});
        } catch (const OpError& e) {
            const QString message = QString::fromUtf8(e.what());
            if (framework == Framework::TensorFlow) {
                // TensorFlow's own refusal is the expression's error: point at the value it
                // refuses (a float, a string, an index array).
                std::optional<int> position = e.position();
                for (const SubscriptItem& item : sub->items)
                    if (!position && !item.invalidMessage.empty()) position = item.invalidBegin;
                m_spec->setError(position, message);
            } else {
                m_spec->setError(std::nullopt, {});
            }
            m_table->setUnavailable(
                !reason.isEmpty()
                    ? reason
                    : tr("No strided_slice arguments say this subscript: %1").arg(message));
        }
    }

    void tableEdited()
    {
        ArgTableModel* model = m_table->model();
        const std::vector<ArgTableModel::Row> edited = model->rows();
        QString expr;
        try {
            expr = QString::fromStdString(toExpr(sparseFromTable(model)));
        } catch (const OpError& e) {
            m_table->setNote(tr("No Python subscript says this, so the expression is unchanged: %1")
                                 .arg(QString::fromUtf8(e.what())),
                             true);
            return;
        }
        m_spec->setExpression(expr);
        // Each table edit is an undo step of its own: cells are committed whole, not typed
        // into the workspace key by key, so there is nothing to merge.
        emit attrsEdited({{"expr", Attr(expr.toStdString())}}, QString());
        // The table always shows what the expression encodes to, even when the edit did not
        // change it (a stride on an index): a cell never says something the workspace does not.
        showEncoding(expr);
        const QString lost = cellsWithoutEffect(edited, model->rows());
        if (!lost.isEmpty())
            m_table->setNote(tr("%1 has no effect in %2, and no Python subscript writes it, so "
                                "the table shows what %2 encodes to.")
                                 .arg(lost, expr));
    }

    // The cells of `edited` that encoding `now`'s expression did not keep, named for people:
    // "stride of entry 1".
    QString cellsWithoutEffect(const std::vector<ArgTableModel::Row>& edited,
                               const std::vector<ArgTableModel::Row>& now) const
    {
        if (edited.size() != now.size())
            return edited.size() > now.size() ? tr("The last entry") : QString();
        QStringList cells;
        const ArgTableModel* model = m_table->model();
        for (std::size_t r = 0; r < edited.size(); ++r)
            for (std::size_t c = 0; c < edited[r].size() && c < now[r].size(); ++c)
                if (edited[r][c] != now[r][c])
                    cells << tr("%1 of entry %2")
                                 .arg(model->headerData(int(c), Qt::Horizontal, Qt::DisplayRole)
                                          .toString()
                                          .section(u'\n', 0, 0))
                                 .arg(r);
        if (cells.isEmpty()) return {};
        QString text = cells.join(QStringLiteral(", "));
        text[0] = text[0].toUpper();
        return text;
    }

public:
    SpecEditor* specEditor() const override { return m_spec; }
    FrameworkSelector* frameworkSelector() const override { return m_framework; }

private:
    SpecEditor* m_spec;
    ArgTable* m_table;
    FrameworkSelector* m_framework = nullptr; ///< getitem only
};

// strided_slice and its relatives: the raw table, plus fields for any other attribute.
class RawSliceEditor : public OpEditor
{
public:
    RawSliceEditor(const OpDef& def, QWidget* parent)
        : OpEditor(parent),
          m_table(new ArgTable(QStringLiteral("rawArgs"), tr("Raw strided_slice arguments"),
                               rawColumns(), this))
    {
        setObjectName(QStringLiteral("rawSliceEditor"));
        std::vector<AttrDef> others;
        const std::vector<std::string>& spec = notationAttrs(Notation::RawStridedSlice);
        for (const AttrDef& a : def.attrs)
            if (std::find(spec.begin(), spec.end(), a.name) == spec.end()) others.push_back(a);
        auto* layout = tightColumn(this);
        if (!others.empty()) {
            m_fields = new AttrFields(def, others, this);
            layout->addWidget(m_fields);
            connect(m_fields, &AttrFields::edited, this,
                    [this](const QString& name) { emitAttrs(QStringLiteral("attr:") + name); });
            connect(m_fields, &AttrFields::unreadableChanged, this, &OpEditor::unreadableChanged);
        }
        // strided_slice's arguments spell a subscript that NumPy, PyTorch and JAX read too
        // (to_expr, and ops without a tensor, have nothing to read).
        if (FrameworkComparer::compares(def.name) && !def.inputs.empty()) {
            m_framework = new FrameworkSelector(FrameworkSelector::Reads::RawArguments, this);
            auto* row = new QHBoxLayout;
            row->setContentsMargins(0, 0, 0, 0);
            auto* readAs = new QLabel(tr("&read as"), this);
            readAs->setBuddy(m_framework);
            row->addWidget(readAs);
            row->addWidget(m_framework);
            row->addStretch(1);
            layout->addLayout(row);
            connect(m_framework, &FrameworkSelector::frameworkEdited, this,
                    &OpEditor::frameworkEdited);
        }
        layout->addWidget(m_table, 1);
        // A table edit is committed whole: one undo step each, never merged.
        connect(m_table->model(), &ArgTableModel::edited, this, [this] { emitAttrs({}); });
    }

    void setWorkspace(const Workspace& ws) override
    {
        if (m_framework) m_framework->setFramework(ws.framework);
        if (m_fields) m_fields->setAttrs(ws.attrs);
        const auto sparse = sparseFromAttrs(ws.attrs);
        if (!sparse) {
            m_table->model()->setRows({});
            m_table->setNote(tr("begin, end and strides must be lists of integers and the masks "
                                "32-bit integers to show here"),
                             true);
            return;
        }
        showSparse(m_table->model(), *sparse);
        showSubscript(*sparse);
    }

    void lightStep(const Step* step, const Evaluation*) override
    {
        m_table->model()->setLitRows(step ? step->specEntries : std::vector<int>{});
    }

    std::vector<std::pair<QString, QString>> unreadableAttrs() const override
    {
        return m_fields ? m_fields->unreadable() : std::vector<std::pair<QString, QString>>{};
    }
    QLineEdit* attrField(const std::string& name) const override
    {
        return m_fields ? m_fields->field(name) : nullptr;
    }
    FrameworkSelector* frameworkSelector() const override { return m_framework; }

private:
    void showSubscript(const SparseSpec& sparse)
    {
        bool problem = false;
        m_table->setNote(subscriptNote(sparse, &problem), problem);
    }

    void emitAttrs(const QString& mergeKey)
    {
        const SparseSpec sparse = sparseFromTable(m_table->model());
        showSubscript(sparse);
        Attrs attrs = attrsFromSparse(sparse);
        if (m_fields)
            for (const auto& [name, value] : m_fields->attrs())
                attrs[name] = value;
        emit attrsEdited(attrs, mergeKey);
    }

    ArgTable* m_table;
    AttrFields* m_fields = nullptr;
    FrameworkSelector* m_framework = nullptr; ///< strided_slice only
};

// A table whose columns are integer-list attributes of the same length, one row per entry.
class ListTableEditor : public OpEditor
{
public:
    ListTableEditor(const QString& name, const QString& accessibleName,
                    std::vector<std::string> attrNames, std::vector<ArgTableModel::Column> columns,
                    QWidget* parent)
        : OpEditor(parent), m_attrNames(std::move(attrNames)),
          m_table(new ArgTable(name, accessibleName, std::move(columns), this))
    {
        auto* layout = tightColumn(this);
        layout->addWidget(m_table, 1);
        connect(m_table->model(), &ArgTableModel::edited, this, [this] {
            Attrs attrs;
            for (std::size_t c = 0; c < m_attrNames.size(); ++c) {
                std::vector<std::int64_t> column;
                for (const auto& row : m_table->model()->rows())
                    column.push_back(row[c]);
                attrs[m_attrNames[c]] = Attr::ints(column);
            }
            emit attrsEdited(attrs, QString()); // a committed cell: one undo step, never merged
        });
    }

    void setWorkspace(const Workspace& ws) override
    {
        std::vector<std::vector<std::int64_t>> columns;
        std::size_t rows = 0;
        for (const std::string& name : m_attrNames) {
            columns.push_back(intList(ws.attrs, name.c_str()));
            rows = std::max(rows, columns.back().size());
        }
        std::vector<ArgTableModel::Row> table(rows);
        bool ragged = false;
        for (std::size_t r = 0; r < rows; ++r)
            for (const auto& column : columns) {
                ragged = ragged || r >= column.size();
                table[r].push_back(r < column.size() ? column[r] : 0);
            }
        m_table->model()->setRows(std::move(table));
        m_table->setNote(ragged ? tr("The lists have different lengths; missing values show as 0 "
                                     "until you edit the table.")
                                : QString(),
                         ragged);
        m_inputShape = ws.inputs.empty() || ws.inputs.front().empty()
                           ? Shape{}
                           : ws.inputs.front().front().shape;
        labelRows();
    }

    void showEvaluation(const Evaluation& eval) override
    {
        if (!eval.inputs.empty() && !eval.inputs.front().empty())
            m_inputShape = eval.inputs.front().front().shape();
        labelRows();
    }

protected:
    virtual void labelRows() {}

    ArgTable* table() const { return m_table; }
    const Shape& inputShape() const { return m_inputShape; }

private:
    std::vector<std::string> m_attrNames;
    ArgTable* m_table;
    Shape m_inputShape;
};

// tf.slice: begin and size, one row per input dimension.
class SliceEditor : public ListTableEditor
{
public:
    explicit SliceEditor(QWidget* parent)
        : ListTableEditor(
              QStringLiteral("sliceArgs"), tr("slice begin and size per dimension"),
              notationAttrs(Notation::Box),
              {{tr("begin"), tr("First index taken (no wrap-around, no clamping)"), false, 0},
               {tr("size"), tr("How many to take; -1 takes the rest"), false, -1}},
              parent)
    {
        setObjectName(QStringLiteral("sliceEditor"));
        auto* fit = new QPushButton(tr("One row per input dimension"), this);
        fit->setObjectName(QStringLiteral("sliceFitRank"));
        fit->setAccessibleName(tr("Make one row per input dimension"));
        layout()->addWidget(fit);
        connect(fit, &QPushButton::clicked, this, [this] {
            ArgTableModel* model = table()->model();
            while (model->rowCount() > int(inputShape().size()))
                model->removeEntry(model->rowCount() - 1);
            while (model->rowCount() < int(inputShape().size()))
                model->insertEntry(model->rowCount());
        });
    }

    void lightStep(const Step* step, const Evaluation*) override
    {
        table()->model()->setLitRows(step ? step->inputDims : std::vector<int>{});
    }

protected:
    void labelRows() override
    {
        QStringList labels;
        for (int r = 0; r < table()->model()->rowCount(); ++r)
            labels << (r < int(inputShape().size())
                           ? tr("dim %1 (size %2)").arg(r).arg(inputShape()[std::size_t(r)])
                           : tr("dim %1 (none)").arg(r));
        table()->model()->setRowLabels(labels);
    }
};

// paddle.strided_slice: axes, starts, ends, strides.
class PaddleEditor : public ListTableEditor
{
public:
    explicit PaddleEditor(QWidget* parent)
        : ListTableEditor(
              QStringLiteral("paddleArgs"), tr("Paddle axes, starts, ends and strides"),
              notationAttrs(Notation::PaddleAxes),
              {{tr("axis"), tr("The input dimension this entry slices (0 or more)"), false, 0},
               {tr("start"), tr("First index; negative counts from the end"), false, 0},
               {tr("end"),
                tr("Index to stop before; -1 with a negative stride runs through index 0"), false,
                1},
               {tr("stride"), tr("Step; negative walks backwards"), false, 1}},
              parent)
    {
        setObjectName(QStringLiteral("paddleEditor"));
    }

    void lightStep(const Step* step, const Evaluation*) override
    {
        std::vector<int> rows;
        if (step) {
            const auto& all = table()->model()->rows();
            for (int r = 0; r < int(all.size()); ++r)
                if (std::find(step->inputDims.begin(), step->inputDims.end(),
                              int(all[std::size_t(r)][0])) != step->inputDims.end())
                    rows.push_back(r);
        }
        table()->model()->setLitRows(rows);
    }
};

// Every other op: one field per attribute.
class GenericEditor : public OpEditor
{
public:
    GenericEditor(const OpDef& def, QWidget* parent)
        : OpEditor(parent), m_fields(new AttrFields(def, def.attrs, this))
    {
        setObjectName(QStringLiteral("genericEditor"));
        auto* layout = tightColumn(this);
        auto* summary = new QLabel(QString::fromStdString(def.summary), this);
        summary->setObjectName(QStringLiteral("opSummary"));
        summary->setWordWrap(true);
        layout->addWidget(summary);
        if (def.attrs.empty()) {
            auto* none = new QLabel(tr("This op has no attributes: edit its inputs below."), this);
            layout->addWidget(none);
        }
        layout->addWidget(m_fields);
        layout->addStretch(1);
        connect(m_fields, &AttrFields::edited, this, [this](const QString& name) {
            emit attrsEdited(m_fields->attrs(), QStringLiteral("attr:") + name);
        });
        connect(m_fields, &AttrFields::unreadableChanged, this, &OpEditor::unreadableChanged);
    }

    void setWorkspace(const Workspace& ws) override { m_fields->setAttrs(ws.attrs); }

    std::vector<std::pair<QString, QString>> unreadableAttrs() const override
    {
        return m_fields->unreadable();
    }
    QLineEdit* attrField(const std::string& name) const override { return m_fields->field(name); }

private:
    AttrFields* m_fields;
};

} // namespace

void OpEditor::showEvaluation(const Evaluation&) {}

void OpEditor::lightStep(const Step*, const Evaluation*) {}

std::unique_ptr<OpEditor> makeOpEditor(const OpDef& def, QWidget* parent)
{
    switch (def.notation) {
    case Notation::Subscript: return std::make_unique<ExprEditor>(def, parent);
    case Notation::RawStridedSlice: return std::make_unique<RawSliceEditor>(def, parent);
    case Notation::Box: return std::make_unique<SliceEditor>(parent);
    case Notation::PaddleAxes: return std::make_unique<PaddleEditor>(parent);
    case Notation::Generic: break;
    }
    return std::make_unique<GenericEditor>(def, parent);
}

} // namespace ss::ui
