module.exports={}
