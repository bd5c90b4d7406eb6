#pragma once
// Owning handles of the OpenSSL objects the JOSE code uses, freed however a function ends.

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <memory>

namespace loupe::jose {

template <auto Free>
struct OpenSslFree {
    template <typename T>
    void operator()(T* pointer) const {
        Free(pointer);
    }
};

using BigNumber = std::unique_ptr<BIGNUM, OpenSslFree<BN_free>>;
using Bio = std::unique_ptr<BIO, OpenSslFree<BIO_free>>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, OpenSslFree<EVP_MD_CTX_free>>;
using EcSignature = std::unique_ptr<ECDSA_SIG, OpenSslFree<ECDSA_SIG_free>>;
using KeyContext = std::unique_ptr<EVP_PKEY_CTX, OpenSslFree<EVP_PKEY_CTX_free>>;
using ParamBuilder = std::unique_ptr<OSSL_PARAM_BLD, OpenSslFree<OSSL_PARAM_BLD_free>>;
using Params = std::unique_ptr<OSSL_PARAM, OpenSslFree<OSSL_PARAM_free>>;

/// A shared EVP_PKEY (keys are immutable once made, so copies share one).
inline std::shared_ptr<EVP_PKEY> share_key(EVP_PKEY* key) {
    return std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free);
}

}  // namespace loupe::jose
