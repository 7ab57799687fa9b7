from ultralytics.utils.downloads import safe_run
__version__ = '8.3.41'
