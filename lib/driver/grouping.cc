// group_by_cause(): the findings of one cause repeated over a model's copied structure (a loop
// the exporter unrolled, a module used N times) become one finding with every site kept as a
// related location. Documented in docs/library.md ("Findings of one cause") and
// docs/output-formats.md.
#include <fmt/format.h>
#include <onnxlint/diagnostic.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace onnxlint {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A name with its numbers left out: every run of digits is dropped, with the '_' or '#' just
// before it. Copies that an exporter numbers (`/NonZero`, `/NonZero_12`, `Reshape#40`,
// `module_list.3`, `Loop_7:body`) read the same; the rest of the name must be equal.
void append_unnumbered(std::string& out, std::string_view name) {
  for (size_t i = 0; i < name.size();) {
    if (is_digit(name[i])) {
      if (!out.empty() && (out.back() == '_' || out.back() == '#')) out.pop_back();
      while (i < name.size() && is_digit(name[i])) ++i;
      continue;
    }
    out += name[i++];
  }
}

// The key of a finding's cause: equal keys are one cause. The rule's own description of the
// cause (`cause`) and everything that must not differ between copies are compared as they are;
// the site only up to its numbers. Separated by a byte names cannot hold.
std::string group_key(const Diagnostic& d) {
  constexpr char kSep = '\x1f';
  std::string k;
  k.reserve(d.rule_id.size() + d.cause.size() + d.help.size() + d.location.graph_path.size() +
            d.location.node_name.size() + 64);
  k += d.rule_id;
  k += kSep;
  k += static_cast<char>('0' + static_cast<int>(d.severity));
  k += kSep;
  for (std::string_view part :
       {std::string_view(d.target), std::string_view(d.key), std::string_view(d.cause),
        std::string_view(d.help), std::string_view(d.location.file),
        std::string_view(d.location.op_type), std::string_view(d.location.domain),
        std::string_view(d.location.attribute)}) {
    k += part;
    k += kSep;
  }
  k += d.location.node_index ? 'n' : '-';  // a node site never merges with a value site
  k += kSep;
  append_unnumbered(k, d.location.graph_path);
  k += kSep;
  append_unnumbered(k, d.location.node_name);
  k += kSep;
  append_unnumbered(k, d.location.value_name);
  return k;
}

// Number-aware order of two names: "If_9" before "If_12", so that the first copy is the
// lowest-numbered one however many digits the numbers have.
int natural_compare(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && is_digit(a[ie])) ++ie;
      while (je < b.size() && is_digit(b[je])) ++je;
      std::string_view na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      while (na.size() > 1 && na.front() == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb.front() == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size() ? -1 : 1;
      if (int c = na.compare(nb); c != 0) return c < 0 ? -1 : 1;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j])
      return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
    ++i;
    ++j;
  }
  if (i < a.size()) return 1;
  if (j < b.size()) return -1;
  return 0;
}

// The site a group keeps: the first copy, which is also the one a model with fewer copies has.
bool site_less(const Diagnostic& a, const Diagnostic& b) {
  if (int c = natural_compare(a.location.graph_path, b.location.graph_path); c != 0) return c < 0;
  const uint32_t na = a.location.node_index.value_or(UINT32_MAX);
  const uint32_t nb = b.location.node_index.value_or(UINT32_MAX);
  if (na != nb) return na < nb;
  if (int c = natural_compare(a.location.value_name, b.location.value_name); c != 0) return c < 0;
  return diagnostic_less(a, b);
}

std::string related_key(const RelatedLocation& r) {
  return fmt::format("{}\x1f{}\x1f{}\x1f{}", r.location.file, r.location.anchor(),
                     r.location.attribute, r.message);
}

constexpr std::string_view kSuffixStart = " (and the same at ";

// "node", "value" or "place": what the other sites are.
std::string_view sites_word(const std::vector<Diagnostic*>& members) {
  bool nodes = true, values = true;
  for (size_t i = 1; i < members.size(); ++i) {
    const Location& l = members[i]->location;
    nodes = nodes && l.node_index.has_value();
    values = values && !l.node_index && !l.value_name.empty();
  }
  return nodes ? "node" : values ? "value" : "place";
}

// Merges `members` (two or more, sorted by site_less) into the first.
void merge(std::vector<Diagnostic*>& members) {
  Diagnostic& first = *members.front();
  uint64_t count = 0;
  for (const Diagnostic* m : members) count += m->count;
  std::unordered_set<std::string> listed;
  listed.reserve(first.related.size() + 2 * members.size());
  listed.insert(related_key({first.location, ""}));
  for (const RelatedLocation& r : first.related) listed.insert(related_key(r));
  // The sites first (the copies are what the finding is about), then what they reach.
  std::vector<RelatedLocation> sites, reached;
  for (size_t i = 1; i < members.size(); ++i) {
    Diagnostic& m = *members[i];
    RelatedLocation site{std::move(m.location), std::string(kSameCauseMessage)};
    if (listed.insert(related_key(site)).second) sites.push_back(std::move(site));
    for (RelatedLocation& r : m.related) {
      if (listed.insert(related_key(r)).second) reached.push_back(std::move(r));
    }
  }
  // The places the message does not name yet: the other findings' (a finding a rule grouped
  // itself speaks of its own places). Merged again (a program calling group_by_cause twice),
  // the count replaces the one the message has.
  uint64_t others = count - first.count;
  if (first.count > 1 && first.message.ends_with(")")) {
    if (const size_t at = first.message.rfind(kSuffixStart); at != std::string::npos) {
      first.message.erase(at);
      others = count - 1;
    }
  }
  first.message += fmt::format("{}{} other {}{})", kSuffixStart, others, sites_word(members),
                               others == 1 ? "" : "s");
  first.related.reserve(first.related.size() + sites.size() + reached.size());
  for (RelatedLocation& r : sites) first.related.push_back(std::move(r));
  for (RelatedLocation& r : reached) first.related.push_back(std::move(r));
  first.count = static_cast<uint32_t>(std::min<uint64_t>(count, UINT32_MAX));
}

}  // namespace

void group_by_cause(std::vector<Diagnostic>& diags) {
  // Groups in order of their earliest finding; a finding without a cause is its own group.
  std::unordered_map<std::string, size_t> index;
  std::vector<std::vector<size_t>> groups;
  bool any = false;
  for (size_t i = 0; i < diags.size(); ++i) {
    if (diags[i].cause.empty()) {
      groups.push_back({i});
      continue;
    }
    auto [it, fresh] = index.try_emplace(group_key(diags[i]), groups.size());
    if (fresh) {
      groups.emplace_back();
    } else {
      any = true;
    }
    groups[it->second].push_back(i);
  }
  if (!any) return;
  std::vector<Diagnostic> out;
  out.reserve(groups.size());
  for (const std::vector<size_t>& g : groups) {
    if (g.size() == 1) {
      out.push_back(std::move(diags[g.front()]));
      continue;
    }
    std::vector<Diagnostic*> members;
    members.reserve(g.size());
    for (size_t i : g) members.push_back(&diags[i]);
    std::sort(members.begin(), members.end(),
              [](const Diagnostic* a, const Diagnostic* b) { return site_less(*a, *b); });
    merge(members);
    out.push_back(std::move(*members.front()));
  }
  diags = std::move(out);
}

}  // namespace onnxlint
