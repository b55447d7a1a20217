#include "sim/core/bounded_json.hpp"

#include <vector>

#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

// nlohmann's parse error message ends in "last read: '<token>'" — the whole token, which can be
// the rest of a 50 MB file. Keep the message, cut the token.
std::string syntax_message(const std::string& what, const std::string& token) {
  const std::string marker = "; last read: '";
  const size_t at = what.find(marker);
  std::string msg = what;
  if (at != std::string::npos) {
    const size_t tail = what.find("'; expected ", at + marker.size());
    msg = what.substr(0, at + marker.size()) + excerpt(token) + "'" +
          (tail == std::string::npos ? "" : what.substr(tail + 1));
  }
  return excerpt(msg, 400);
}

// A SAX handler that builds the document like nlohmann's own DOM parser (iteratively: the parser
// keeps its own stack), counting depth and refusing repeated keys. Throws from the callbacks.
class BoundedBuilder {
 public:
  BoundedBuilder(Json& root, const std::string& file, const std::string& field,
                 const std::string& what)
      : root_(root), file_(file), field_(field), what_(what) {}

  bool null() { return put(Json(nullptr)) != nullptr; }
  bool boolean(bool v) { return put(Json(v)) != nullptr; }
  bool number_integer(Json::number_integer_t v) { return put(Json(v)) != nullptr; }
  bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)) != nullptr; }
  bool number_float(Json::number_float_t v, const Json::string_t&) {
    return put(Json(v)) != nullptr;
  }
  bool string(Json::string_t& v) { return put(Json(std::move(v))) != nullptr; }
  bool binary(Json::binary_t& v) { return put(Json::binary(std::move(v))) != nullptr; }
  bool start_object(std::size_t) { return open(Json::object()); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(Json::string_t& k) {
    auto& obj = stack_.back().node->get_ref<Json::object_t&>();
    auto [it, fresh] = obj.emplace(std::move(k), nullptr);
    if (!fresh)
      throw InputError(file_, path(excerpt_key(it->first)),
                       "duplicate key (each key may appear once per object; which value was "
                       "meant is ambiguous)");
    slot_ = &it->second;
    key_ = &it->first;  // std::map nodes do not move
    return true;
  }

  bool parse_error(std::size_t, const std::string& token, const nlohmann::detail::exception& e) {
    throw JsonSyntaxError(file_, field_, what_ + ": " + syntax_message(e.what(), token));
  }

 private:
  struct Frame {
    Json* node;
    std::string step;  // how the parent reaches this container: ".key" or "[i]"
  };

  static std::string excerpt_key(const std::string& k) { return "." + excerpt(k, 40); }

  // The step from the innermost open container to the value being added.
  std::string next_step() const {
    if (stack_.empty()) return "";
    const Json& top = *stack_.back().node;
    if (top.is_array()) return "[" + std::to_string(top.size()) + "]";
    return excerpt_key(*key_);
  }

  // field + the path of the open containers + `last`, in JsonNode's "a.b[2].c" form.
  std::string path(const std::string& last) const {
    std::string p;
    for (const auto& f : stack_) p += f.step;
    p += last;
    if (!p.empty() && p[0] == '.') p.erase(0, 1);
    if (p.empty()) p = "<root>";
    p = excerpt(p, 240);
    return field_.empty() ? p : field_ + ": " + p;
  }

  Json* put(Json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Json& top = *stack_.back().node;
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }

  bool open(Json&& container) {
    std::string step = next_step();
    if (stack_.size() >= kMaxJsonDepth)
      throw InputError(file_, path(step),
                       "expected JSON nested at most " + std::to_string(kMaxJsonDepth) +
                           " levels deep (objects and arrays)");
    Json* p = put(std::move(container));
    stack_.push_back({p, std::move(step)});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  Json& root_;
  const std::string &file_, &field_, &what_;
  std::vector<Frame> stack_;
  Json* slot_ = nullptr;  // the member the next value of the innermost object goes to
  const std::string* key_ = nullptr;
};

}  // namespace

Json parse_json(std::string_view text, const std::string& file, const std::string& field,
                const std::string& what) {
  Json doc;
  BoundedBuilder sax(doc, file, field, what);
  Json::sax_parse(text.data(), text.data() + text.size(), &sax);
  return doc;
}

}  // namespace pdsim
