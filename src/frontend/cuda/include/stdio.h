/* gpug stub: printf is declared by the prelude and ignored by lowering. */
#pragma once
