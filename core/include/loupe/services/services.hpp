#pragma once
// Typed cross-plugin interfaces, keyed by name and version, never by C++ type information
// (plugins are loaded RTLD_LOCAL; their typeinfo is not shared). An interface declares
//   static constexpr const char* service_name = "builds.BuildsService";
//   static constexpr int service_version = 1;
// The provider owns the object for the process lifetime.

#include <string>

#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API Services {
public:
    virtual ~Services();

    template <class T>
    void provide(T& implementation) {
        provide_raw(T::service_name, T::service_version, &implementation);
    }
    /// The provider's object, or nullptr if no enabled plugin provides this name and version.
    template <class T>
    T* find() {
        return static_cast<T*>(find_raw(T::service_name, T::service_version));
    }
    /// Like find(), but a missing service fails install() with a message naming it.
    template <class T>
    T& require() {
        return *static_cast<T*>(require_raw(T::service_name, T::service_version));
    }

protected:
    virtual void provide_raw(const std::string& name, int version, void* object) = 0;
    virtual void* find_raw(const std::string& name, int version) = 0;
    virtual void* require_raw(const std::string& name, int version) = 0;
};

}  // namespace loupe
