/* gpug stub: the prelude already declares the CUDA device API. */
#pragma once
